"""Keyboard focus during play (issue 31, item 14).

A whole move made with the Enter key alone: after each step the focus is on
the next choice (never the page's heading), after the move on the board; when
the other player's move comes in through the poll and it is the player's turn
again, the focus goes to the first choice, unless they are typing in the chat
or their notes, which keep it (and what was typed).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.engine import registry
from games.lobby import services as lobby
from games.models import Match
from games.play import services
from tests.e2e.helpers import POLL_MS, log_in, make_player, version_of, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

ACTIVE = """() => {
  const a = document.activeElement;
  return {
    tag: a.tagName.toLowerCase(),
    id: a.id,
    inPanel: !!a.closest('#match-panel'),
    choice: !!a.closest('#choices .choice, .board-choice'),
    board: !!a.closest('.board'),
    heading: /^h[1-6]$/i.test(a.tagName),
  };
}"""


def active(page: Page) -> dict:
    return page.evaluate(ACTIVE)


def other_player_moves(match: Match, user) -> None:
    match.refresh_from_db()
    game = registry.get(match.game_key)
    seat = match.seats.get(user=user).index
    assert game.current_seats(match.state) == [seat]
    action = game.legal_actions(match.state, seat)[0]
    services.submit_action(match, user, action, match.version)


def move_with_enter(page: Page) -> None:
    """From the focus on the first choice, press Enter until the move is made; after
    each step the focus is on a choice, never on a heading or the page's body."""
    start = version_of(page)
    for _step in range(12):
        now = active(page)
        assert now["choice"] and not now["heading"], now
        path = page.evaluate("document.activeElement.closest('[data-path]')?.dataset.path")
        page.keyboard.press("Enter")
        page.wait_for_function(
            """([start, path]) => {
                const panel = document.getElementById('match-panel');
                return Number(panel.dataset.version) > start ||
                  !document.querySelector(`#match-panel [data-path="${path}"]`) ||
                  location.search.includes(path);
            }""",
            arg=[start, path],
        )
        page.wait_for_load_state("networkidle")
        # The address changes at the swap, the focus moves when it settles (htmx's
        # settle delay): look at the focus only once nothing is swapping or settling.
        page.wait_for_function(
            "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"
        )
        if version_of(page) > start:
            return
    raise AssertionError("twelve steps did not make a move")


def test_focus_follows_the_play_and_spares_typing(live_server, window):
    base = live_server.url
    alice, bob = make_player("focus-alice"), make_player("focus-bob")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    game = registry.get("nogi")
    if match.seats.get(index=game.current_seats(match.state)[0]).user == bob:
        other_player_moves(match, bob)
    person = window("alice")
    page = person.page
    log_in(page, base, alice.username)
    page.goto(f"{base}/m/{match.pk}/")
    expect(page.locator("#match-panel")).to_have_attribute("data-my-turn", "1")

    # A move from the keyboard alone; then, not her turn, the focus stays on the board.
    page.locator("#choices .choice").first.focus()
    move_with_enter(page)
    expect(page.locator("#match-panel")).to_have_attribute("data-my-turn", "0")
    after = active(page)
    assert after["board"] and not after["heading"], after

    # The poll brings her turn back: the focus goes to her first choice.
    version = version_of(page)
    other_player_moves(match, bob)
    wait_for_version(page, version + 1, timeout=POLL_MS)
    expect(page.locator("#match-panel")).to_have_attribute("data-my-turn", "1")
    page.wait_for_function("() => !!document.activeElement.closest('#choices .choice')")
    assert active(page)["choice"]

    # Typing in the chat, then in the notes: the turn coming back leaves the focus there.
    for field, text in [("#chat-text", "nice roll"), ("#note-text", "keep the red knight")]:
        move_with_enter(page)
        version = version_of(page)
        page.locator(field).click()
        page.keyboard.type(text[:4])
        other_player_moves(match, bob)
        wait_for_version(page, version + 1, timeout=POLL_MS)
        expect(page.locator("#match-panel")).to_have_attribute("data-my-turn", "1")
        page.keyboard.type(text[4:])
        assert active(page)["id"] == field[1:]
        expect(page.locator(field)).to_have_value(text)
        page.locator("#choices .choice").first.focus()
    person.assert_clean()

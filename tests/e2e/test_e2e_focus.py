"""Keyboard focus during play (issue 31, item 14).

A whole move made with the Enter key alone: after each step the focus is on
the next choice (never the page's heading), after the move on the board; when
the other player's move comes in through the poll and it is the player's turn
again, the focus goes to the first choice, unless they are typing in the chat
or their notes, which keep it (and what was typed). The move's own answer,
held back on its way, keeps off the notes too, and is dropped when the poll
has drawn the move (and more) before it.
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


#: No request of the page's under way, nothing swapping or settling.
SETTLED = "() => !document.querySelector('.htmx-request, .htmx-swapping, .htmx-settling')"


#: Counts the page's answers to its moves once each has been taken in: htmx's own
#: load handler (the swap, if any) runs before "loadend", its settle 20 ms later.
COUNT_MOVE_ANSWERS = """() => {
  window.smokiMoveAnswers = 0;
  const open = XMLHttpRequest.prototype.open;
  XMLHttpRequest.prototype.open = function (method, url, ...rest) {
    if (String(url).endsWith('/act/')) {
      this.addEventListener('loadend', () => setTimeout(() => { window.smokiMoveAnswers += 1; }, 50));
    }
    return open.call(this, method, url, ...rest);
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
        page.wait_for_function(SETTLED)
        if version_of(page) > start:
            return
    raise AssertionError("twelve steps did not make a move")


def her_turn_on_the_page(live_server, window, name: str):
    """Alice's match of Nogi against Bob, open on her page at her turn."""
    alice, bob = make_player(f"{name}-alice"), make_player(f"{name}-bob")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    game = registry.get("nogi")
    if match.seats.get(index=game.current_seats(match.state)[0]).user == bob:
        other_player_moves(match, bob)
    person = window("alice")
    log_in(person.page, live_server.url, alice.username)
    person.page.goto(f"{live_server.url}/m/{match.pk}/")
    expect(person.page.locator("#match-panel")).to_have_attribute("data-my-turn", "1")
    return match, bob, person


def test_focus_follows_the_play_and_spares_typing(live_server, window):
    match, bob, person = her_turn_on_the_page(live_server, window, "focus")
    page = person.page

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
        now = active(page)
        assert now["id"] == field[1:], now
        expect(page.locator(field)).to_have_value(text)
        page.locator("#choices .choice").first.focus()
    person.assert_clean()


def make_a_move_held(page: Page, match: Match, hold) -> None:
    """Make a move from the keyboard, its post handed to ``hold`` (a route
    handler) on its way; the steps before it go through."""
    held = []

    def handler(route) -> None:
        held.append(route)
        hold(route)

    page.route(f"**/m/{match.pk}/act/", handler)
    page.locator("#choices .choice").first.focus()
    for _step in range(12):
        page.keyboard.press("Enter")
        for _look in range(200):
            page.wait_for_timeout(50)
            if held or page.evaluate(SETTLED):
                break
        if held:
            return
    raise AssertionError("twelve steps did not post a move")


def test_a_late_answer_to_her_move_leaves_her_typing(live_server, window):
    """The answer to her move comes in after she has gone on to type in her notes
    (a slow network): it draws her move, and leaves the focus and what she typed
    where they are, as a poll's answer does."""
    match, _bob, person = her_turn_on_the_page(live_server, window, "late")
    page = person.page
    start = version_of(page)
    held = []
    make_a_move_held(page, match, held.append)

    page.locator("#note-text").click()
    page.keyboard.type("keep")
    held[0].continue_()
    wait_for_version(page, start + 1, timeout=10_000)
    page.wait_for_function(SETTLED)
    page.keyboard.type(" the red knight")
    now = active(page)
    assert now["id"] == "note-text", now
    expect(page.locator("#note-text")).to_have_value("keep the red knight")
    person.assert_clean()


def test_an_answer_older_than_the_page_is_dropped(live_server, window):
    """The poll draws her move, then Bob's, before her move's own answer comes in:
    that answer, older than the page, is dropped (it would draw her move again over
    Bob's, its log lines twice, and take the focus from her notes)."""
    match, bob, person = her_turn_on_the_page(live_server, window, "older")
    page = person.page
    start = version_of(page)
    page.evaluate(COUNT_MOVE_ANSWERS)
    late = []

    def answer_later(route) -> None:
        late.append((route, route.fetch()))  # the move is made; its answer waits

    make_a_move_held(page, match, answer_later)
    wait_for_version(page, start + 1)  # drawn by the poll
    page.wait_for_function(SETTLED)
    page.locator("#note-text").click()
    page.keyboard.type("keep")
    other_player_moves(match, bob)
    wait_for_version(page, start + 2)
    page.wait_for_function(SETTLED)
    log = page.locator("#move-log-list > li").all_inner_texts()

    route, response = late[0]
    route.fulfill(response=response)
    page.wait_for_function("() => window.smokiMoveAnswers === 1")
    page.wait_for_function(SETTLED)
    assert version_of(page) == start + 2
    expect(page.locator("#match-panel")).to_have_attribute("data-my-turn", "1")
    assert page.locator("#move-log-list > li").all_inner_texts() == log
    page.keyboard.type(" the red knight")
    now = active(page)
    assert now["id"] == "note-text", now
    expect(page.locator("#note-text")).to_have_value("keep the red knight")
    person.assert_clean()

"""What the keyboard and the page remember between pages (issue 39, item 16).

- The replay stepped by Tab and Enter: after Enter on "Next step" the next page
  opens with the focus on "Next step" again (it was on the page's top, ten Tabs
  away from it), and at the last step, where "Next step" is gone, on
  "Previous step".
- "The board in words" stays as the player last left it: opened, it is open on
  the reload, on the replay and on another match; folded again, it is folded.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import registry
from games.lobby import services as lobby
from games.play import services
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def a_nogi_match_moves_in(user, moves: int = 2):
    game = registry.get("nogi")
    match = lobby.create_match(user=user, game_key="nogi", n_seats=2)
    lobby.fill_with_bots(user=user, match=match)
    seat = match.seats.get(user=user).index
    for _ in range(moves):
        services.play_bot_turns(match.pk, limit=50)
        match.refresh_from_db()
        services.submit_action(match, user, game.legal_actions(match.state, seat)[0], match.version)
    services.play_bot_turns(match.pk, limit=50)
    match.refresh_from_db()
    return match


def _focused(page) -> str:
    return page.evaluate("document.activeElement && document.activeElement.id")


def test_stepping_the_replay_by_enter_keeps_the_focus_on_the_step_button(live_server, window):
    user = make_player("stepper")
    match = a_nogi_match_moves_in(user)
    last = match.version
    page = window("stepper").page
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/m/{match.pk}/replay/?at={last - 2}")
    page.locator("#replay-next").focus()
    for step in (last - 1, last):
        page.keyboard.press("Enter")
        expect(page).to_have_url(re.compile(rf"\?at={step}$"))
        expect(page.locator("#replay")).to_have_attribute("data-step", str(step))
        page.wait_for_load_state("load")
        expected = "replay-next" if step < last else "replay-previous"
        assert _focused(page) == expected, f"at step {step} the focus is on {_focused(page)!r}"
    page.keyboard.press("Enter")  # "Previous step" from the end
    expect(page).to_have_url(re.compile(rf"\?at={last - 1}$"))
    page.wait_for_load_state("load")
    assert _focused(page) == "replay-previous"
    # A pointer's click moves no focus: the next page opens as ever.
    page.locator("#replay-next").click()
    expect(page).to_have_url(re.compile(rf"\?at={last}$"))
    page.wait_for_load_state("load")
    assert _focused(page) in ("", None)


def test_the_board_in_words_stays_as_the_player_left_it(live_server, window):
    user = make_player("reader")
    match = a_nogi_match_moves_in(user)
    other = a_nogi_match_moves_in(user, moves=1)
    page = window("reader").page
    log_in(page, live_server.url, user.username)
    url = f"{live_server.url}/m/{match.pk}/"
    page.goto(url)
    words = page.locator("#board-text")
    expect(words).not_to_have_attribute("open", "")
    words.locator("summary").click()
    expect(words).to_have_attribute("open", "")
    for where in (url, f"{url}replay/?at=1", f"{live_server.url}/m/{other.pk}/"):
        page.goto(where)
        expect(page.locator("#board-text")).to_have_attribute("open", "")
    page.locator("#board-text summary").click()
    expect(page.locator("#board-text")).not_to_have_attribute("open", "")
    page.goto(url)
    page.wait_for_load_state("load")
    expect(page.locator("#board-text")).not_to_have_attribute("open", "")

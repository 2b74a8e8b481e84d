"""End-to-end: a player steps through a finished Drakon match's replay with the keyboard.

The match is played to its end through the services; in the browser the
player opens its replay at the start, steps forward and back with the arrow
keys (each press follows the page's plain links), reaches the opponent's
first move that changed the board and sees it highlighted (a dashed outline
and a star, with the legend), jumps to the end with End and to a move from the
log, and reads the page at a phone's 390 px without sideways scrolling. On
the match page of a match in play, a player sees the opponent's move
highlighted on the board. The browser must see no error and no failed
request.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.engine import registry
from games.history import replay
from games.lobby import services as lobby
from games.models import MatchStatus, Seat
from games.play import services
from tests.conformance.kit import GAME_KEYS, bot_choice
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _finished_drakon_match(players):
    """A two-player Drakon match played to its end by the heuristic bot. Most
    end within 150 moves, but about one deal in forty runs past 400 (up to
    800 in 300 seeded games): such a match is left and another one dealt."""
    game = registry.get("drakon")
    for _deal in range(10):
        match = lobby.create_match(user=players[0], game_key="drakon", n_seats=2)
        lobby.join_match(user=players[1], match=match)
        for step in range(400):
            match.refresh_from_db()
            if match.status != MatchStatus.ACTIVE:
                break
            seat = game.current_seats(match.state)[0]
            action = bot_choice("drakon", match.state, seat, "heuristic", f"e2e{step}")
            services.submit_action(match, players[seat], action, match.version)
        match.refresh_from_db()
        if match.status == MatchStatus.FINISHED:
            return match
    raise AssertionError("ten Drakon deals in a row ran past 400 moves")


def _opponents_visible_move(match, seat: int) -> tuple[int, set[str]]:
    """The first step made by the other seat that changes ``seat``'s board, and what."""
    game = registry.get(match.game_key)
    entries = [(m.seq, m.seat, m.action) for m in match.moves.order_by("seq")]
    for seq, mover, _action in entries:
        if seq == 0 or mover in (None, seat):
            continue
        before, after = replay.step_states(match, game, entries, seq)
        changed = replay.changes(match, before, after, seat)
        if changed:
            return seq, set(changed)
    raise AssertionError("the opponent never changed the board")


def _marked(page) -> set[str]:
    return set(
        page.locator(".board-col [data-changed]").evaluate_all(
            "nodes => nodes.map(n => n.dataset.changed)"
        )
    )


def test_a_player_steps_through_a_finished_drakon_match_with_the_keyboard(live_server, window):
    players = [make_player("ayla"), make_player("borys")]
    match = _finished_drakon_match(players)
    last = match.version
    ayla = window("ayla")
    page = ayla.page
    log_in(page, live_server.url, "ayla")
    base = f"{live_server.url}/m/{match.pk}/replay/"
    page.goto(f"{base}?at=0")
    replay = page.locator("#replay")
    expect(replay).to_have_attribute("data-step", "0")
    expect(page.locator("#replay-step")).to_contain_text(f"Step 0 of {last}")
    expect(page.locator("#match-panel")).to_have_count(0)
    board = page.locator(".board-col svg, .board-col .board").first
    expect(board).to_be_visible()
    for step in (1, 2, 3):
        page.keyboard.press("ArrowRight")
        expect(page).to_have_url(re.compile(rf"\?at={step}$"))
        expect(replay).to_have_attribute("data-step", str(step))
        expect(page.locator(".replay-log li.current")).to_have_count(1)
        expect(page.locator(".replay-log li.current")).to_have_attribute("value", str(step))
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(r"\?at=2$"))
    expect(page.locator("#replay-this-step")).to_be_visible()
    # On to borys's first move that changed ayla's board: it is highlighted.
    step, changed = _opponents_visible_move(match, 0)
    at = 2
    if step <= at or step > 12:
        page.goto(f"{base}?at={step - 1}")
        at = step - 1
    for forward in range(at + 1, step + 1):
        page.keyboard.press("ArrowRight")
        expect(replay).to_have_attribute("data-step", str(forward))
    expect(
        page.locator(".board-col .changed-mark, .board-col .changed-badge").first
    ).to_be_visible()
    expect(page.locator("#changed-legend")).to_be_visible()
    assert _marked(page) == changed
    ayla.screenshot("highlights-replay")
    page.keyboard.press("End")
    expect(replay).to_have_attribute("data-step", str(last))
    expect(page.locator("#replay-next")).to_have_count(0)
    # At the end: the seed, and the board through the other seat's eyes.
    expect(page.locator("code.seed")).to_have_text(match.seed)
    page.locator(".replay-eyes a", has_text="borys").click()
    expect(page).to_have_url(re.compile(rf"\?at={last}&as=1$"))
    page.keyboard.press("ArrowLeft")
    expect(page).to_have_url(re.compile(rf"\?at={last - 1}&as=1$"))
    # Jump from the log, then back to the start with Home.
    page.locator('.replay-log li[value="5"] a').click()
    expect(replay).to_have_attribute("data-step", "5")
    page.keyboard.press("Home")
    expect(replay).to_have_attribute("data-step", "0")
    # A phone: the page fits 390 px without sideways scrolling.
    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(f"{base}?at=4")
    expect(replay).to_have_attribute("data-step", "4")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, f"the replay is {width} px wide at 390 px"
    expect(page.locator("#replay-next")).to_be_in_viewport()
    ayla.assert_clean()


def test_the_match_page_highlights_the_opponents_move(live_server, window):
    """ayla moves, borys moves; ayla opens the match: the catch-up names borys's move
    and the board marks what it changed, on a desktop and at 390 px."""
    players = [make_player("ayla"), make_player("borys")]
    game = registry.get("drakon")
    match = lobby.create_match(user=players[0], game_key="drakon", n_seats=2)
    lobby.join_match(user=players[1], match=match)
    for step in range(12):
        match.refresh_from_db()
        seat = game.current_seats(match.state)[0]
        action = bot_choice("drakon", match.state, seat, "heuristic", f"e2e-m{step}")
        services.submit_action(match, players[seat], action, match.version)
        match.refresh_from_db()
        last = match.moves.order_by("-seq").first()
        if last.seat == 1 and replay.catch_up_changes(
            match, players[0], replay.CatchUp([], last.seq, ""), []
        ):
            break
    assert match.moves.order_by("-seq").first().seat == 1, "borys moved last"
    ayla = window("ayla")
    page = ayla.page
    log_in(page, live_server.url, "ayla")
    for size in ({"width": 1280, "height": 900}, {"width": 390, "height": 844}):
        Seat.objects.filter(match=match, user=players[0]).update(last_seen_at=None)
        page.set_viewport_size(size)
        page.goto(f"{live_server.url}/m/{match.pk}/")
        expect(page.locator("#catch-up")).to_be_visible()
        expect(page.locator("#changed-legend")).to_be_visible()
        mark = page.locator(".board-col .changed-mark, .board-col .changed-badge").first
        expect(mark).to_be_attached()
        assert _marked(page), "the board marks borys's move"
        ayla.screenshot(f"highlights-match-{size['width']}")
    ayla.assert_clean()


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_replay_archive_and_record_are_accessible_on_a_phone(key, live_server, window):
    """axe-core finds no serious violation on the replay of every game, the archive
    and the printable record, at 390 px, which none of them scrolls sideways."""
    base = live_server.url
    game = registry.get(key)
    user = make_player(f"{key[:10]}-rp")
    match = lobby.create_match(user=user, game_key=key, n_seats=game.min_players)
    lobby.fill_with_bots(user=user, match=match)
    person = window("reader")
    log_in(person.page, base, user.username)
    person.page.set_viewport_size(PHONE)
    problems = {}
    for label, path in [
        ("replay start", f"/m/{match.pk}/replay/?at=0"),
        ("replay now", f"/m/{match.pk}/replay/"),
        ("record", f"/m/{match.pk}/print/"),
        ("archive", "/archive/?game=" + key),
    ]:
        person.page.goto(base + path)
        person.page.wait_for_load_state("networkidle")
        person.screenshot(f"history-{key}-{label.replace(' ', '-')}")
        problems[label] = serious_violations(person.page)
        width = person.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{key} {label}: the page scrolls sideways ({width} px)"
    assert not any(problems.values()), problems
    person.assert_clean()

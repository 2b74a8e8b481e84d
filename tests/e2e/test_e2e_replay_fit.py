"""End-to-end: a replay's board is in the first screen (issue 39, item 11).

The replay of every game, seen by one of its players at a step that
changed the board (so the step's sentences, the legend of what changed, the
"Seen by" choice and the seed are all shown), at 1280 x 800 and at a
phone's 390 x 844: the board starts in the top half of the screen and its
step buttons are in view too, nothing above the board pushing it down.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import registry
from games.history import replay
from games.lobby import services as lobby
from games.models import MatchStatus
from games.play import safety, services
from tests.conformance.kit import GAME_KEYS, bot_choice
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = [{"width": 1280, "height": 800}, {"width": 390, "height": 844}]


def _played(key: str, players, moves: int = 10):
    """A match of ``players`` after ``moves`` bot-chosen moves, then finished by
    the last player's resignation (a finished match's replay shows the most
    above its board: who sees it and the seed)."""
    game = registry.get(key)
    match = lobby.create_match(user=players[0], game_key=key, n_seats=len(players))
    for player in players[1:]:
        lobby.join_match(user=player, match=match)
    for step in range(moves):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        seat = game.current_seats(match.state)[0]
        action = bot_choice(key, match.state, seat, "heuristic", f"fit{step}")
        services.submit_action(match, players[seat], action, match.version)
    match.refresh_from_db()
    if match.status == MatchStatus.ACTIVE:
        safety.resign(user=players[-1], match=match)
        match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    return match


def _a_step_that_changed_the_board(match, seat: int) -> int:
    game = registry.get(match.game_key)
    entries = [(m.seq, m.seat, m.action) for m in match.moves.order_by("seq")]
    for seq, _seat, _action in reversed(entries):
        if seq == 0:
            continue
        before, after = replay.step_states(match, game, entries, seq)
        if replay.changes(match, before, after, seat):
            return seq
    raise AssertionError("no step changed the board")


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_replays_board_is_in_the_first_screen(key, live_server, window):
    players = [make_player(f"{key[:8]}{i}") for i in range(2)]
    match = _played(key, players)
    step = _a_step_that_changed_the_board(match, 0)
    reader = window("reader")
    page = reader.page
    log_in(page, live_server.url, players[0].username)
    for screen in SCREENS:
        page.set_viewport_size(screen)
        page.goto(f"{live_server.url}/m/{match.pk}/replay/?at={step}")
        expect(page.locator("#replay-this-step")).to_be_attached()
        expect(page.locator(".replay-eyes")).to_be_attached()
        board = page.locator(".board-col figure.board").first
        box = board.bounding_box()
        nav = page.locator(".replay-nav").bounding_box()
        label = f"{key} at {screen['width']} x {screen['height']}"
        print(f"\n{label}: the board's top at {box['y']:.0f} px, the steps' at {nav['y']:.0f}")
        assert box["y"] <= screen["height"] / 2, f"{label}: the board starts at {box['y']:.0f} px"
        assert nav["y"] + nav["height"] <= screen["height"], f"{label}: the step buttons"
    reader.assert_clean()

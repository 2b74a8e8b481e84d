"""What a screen reader hears of the drawn boards (issue 39, item 17).

- Drako: the dragon and each dwarf are named with the hex they stand on, and a
  dwarf that is a choice is a link named so too.
- Drakon: each room of the drawn lair is one picture named by its line of "The
  board in words" (its glyphs, "+$", "K", "✕", are not read one by one), and each
  hero on it is named.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.engine import registry
from games.lobby import services as lobby
from games.models import MatchStatus
from games.play import services
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NAMES = """nodes => nodes.map(n => [n.getAttribute('role'), n.getAttribute('aria-label')])"""


def two_people_moves_in(key: str, moves: int, names: tuple[str, str]):
    """A match of two people, ``moves`` moves in (each the first legal move of a
    piece, else the first legal action), and its players."""
    game = registry.get(key)
    players = [make_player(name) for name in names]
    match = lobby.create_match(user=players[0], game_key=key, n_seats=2)
    lobby.join_match(user=players[1], match=match)
    for _ in range(moves):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        seat = game.current_seats(match.state)[0]
        legal = game.legal_actions(match.state, seat)
        moving = [a for a in legal if a.get("type") == "move"]
        services.submit_action(match, players[seat], (moving or legal)[0], match.version)
    match.refresh_from_db()
    return match, players


def test_drakos_figures_are_named_with_their_hex(live_server, window):
    game = registry.get("drako")
    match, players = two_people_moves_in("drako", 12, ("dora", "dan"))
    seat = game.current_seats(match.state)[0]
    page = window("mover").page
    log_in(page, live_server.url, players[seat].username)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    board = page.locator("#match-panel figure.board svg").first
    pieces = board.locator("g.piece")
    expect(pieces.first).to_be_attached()
    named = pieces.evaluate_all(NAMES)
    assert named and all(role == "img" and " hex " in f" {name} " for role, name in named), named
    assert any(name.startswith("The dragon, on hex ") for _role, name in named), named
    links = board.locator("a.board-choice:has(g.piece)")
    for index in range(links.count()):
        link = links.nth(index)
        expect(link).to_have_accessible_name(link.locator("g.piece").get_attribute("aria-label"))


@pytest.mark.parametrize("key", ["drakon", "drakon_classic"])
def test_drakons_rooms_are_named_by_their_words(key, live_server, window):
    game = registry.get(key)
    match, players = two_people_moves_in(key, 8, ("hela", "hugo"))
    seat = game.current_seats(match.state)[0]
    page = window("mover").page
    log_in(page, live_server.url, players[seat].username)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    lair = page.locator("#match-panel svg.labyrinth")
    rooms = lair.locator("g.room").evaluate_all(NAMES)
    words = page.locator("#board-text li").evaluate_all("nodes => nodes.map(n => n.textContent)")
    assert len(rooms) > 1
    for role, name in rooms:
        assert role == "img", rooms
        assert name in words, f"{name!r} is not a line of the board in words"
    heroes = lair.locator("g.piece").evaluate_all(NAMES)
    assert heroes and all(role == "img" and name for role, name in heroes), heroes
    # The glyphs drawn on the rooms are not read: the lair's tree holds the rooms' names.
    tree = lair.aria_snapshot()
    for glyph in ("+$", "✕"):
        assert f"text: {glyph}" not in tree and f'"{glyph}"' not in tree, tree[:2000]

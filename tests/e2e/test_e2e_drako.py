"""End-to-end: a short Drako match in two real browsers, with a defence played as a reaction.

Drives Debian's chromium through Playwright against pytest-django's
``live_server``. Logging in, creating the match, joining it and every move go
through the real pages, by clicks on the board: a card in the hand, then a
hex, a dwarf or a button drawn on the board. Only the deal is arranged
through the ORM right after the start (the cards are random), so that the
match is short: the dwarves hold three cards and an empty pile, the dragon
walks next to Morin, the dwarves move and end their turn, the dragon bites,
and Oskar, the dwarf player, blocks the bite with his last card in the
dragon's turn, which ends the match (the dwarves have no card left).
"""

from __future__ import annotations

import pytest
from playwright.sync_api import Page, expect

from games.catalog.drako.builders import card_id, position
from games.models import Match, MatchStatus, Move
from tests.e2e.helpers import (
    click_on_board,
    log_in,
    make_player,
    new_match,
    wait_for_version,
)

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def click(page: Page, path: str) -> None:
    click_on_board(page, "#match-panel figure.drako-board", path)


def test_a_short_drako_match_with_a_reaction(live_server, window):
    base = live_server.url
    make_player("vesna")
    make_player("oskar")
    vesna, oskar = window("vesna"), window("oskar")
    a, b = vesna.page, oskar.page
    log_in(a, base, "vesna")
    log_in(b, base, "oskar")

    # Vesna creates a public Drako match and plays the dragon.
    pk = new_match(
        a,
        "drako",
        n_seats="2",
        visibility="public",
        opt_drako_sides="seat1_dragon",
        opt_drako_placement="first_game",
    )

    b.goto(f"{base}/m/{pk}/")
    b.locator("#join-button").click()
    match = Match.objects.get(pk=pk)
    assert match.status == MatchStatus.ACTIVE and match.state["dragon_seat"] == 0

    # The deal, arranged: a short match (the dwarves' pile is empty).
    state = position(
        to_move="dragon",
        actions_left=1,
        turn_number=1,
        hands={"dragon": ["G02", "G04", "G11", "G09"], "dwarves": ["W02", "W03", "W11"]},
        piles={"dragon": 10, "dwarves": 0},
        options=match.options,
    )
    Match.objects.filter(pk=pk).update(state=state)
    for page in (a, b):
        page.goto(f"{base}/m/{pk}/")
    expect(a.locator("strong.your-turn")).to_be_visible()
    expect(a.locator("figure.drako-board svg g.piece")).to_have_count(4)
    vesna.screenshot("drako-start")

    # 1. The dragon (1 action) walks next to Morin: its card, then a hex on the board.
    walk = card_id("dragon", "G02")
    click(a, f"card-{walk}")
    expect(a.locator("figure.drako-board svg a.board-choice polygon.target")).not_to_have_count(0)
    click(a, f"card-{walk}.hex-1,-1")
    wait_for_version(b, 1)
    expect(b.locator("strong.your-turn")).to_be_visible()

    # 2. The dwarves: Brald moves 2 (card, dwarf, hex), then a two-dwarf move with one dwarf.
    move = card_id("dwarves", "W02")
    click(b, f"card-{move}")
    click(b, f"card-{move}.dwarf-fury")
    click(b, f"card-{move}.dwarf-fury.hex-0,1")
    two = card_id("dwarves", "W03")
    click(b, f"card-{two}")
    click(b, "dwarf-net")
    click(b, "dwarf-net.hex-0,-1")
    click(b, "stop")
    # Two actions spent with fury unused: the dwarves end the turn with a button on the board.
    click(b, "end_turn")
    wait_for_version(a, 6)

    # 3. The dragon bites Morin: card, then the dwarf on the board.
    bite = card_id("dragon", "G04")
    click(a, f"card-{bite}")
    click(a, f"card-{bite}.dwarf-xbow")

    # The reaction is Oskar's turn now: unmistakable on his page, his clock and his email.
    wait_for_version(b, 7)
    expect(b.locator("#drako-reaction")).to_be_visible()
    expect(b.locator("strong.your-turn")).to_be_visible()
    expect(a.locator("#drako-reaction")).to_have_count(0)
    match.refresh_from_db()
    assert match.waiting_on.username == "oskar"
    # On a phone the board fits the width and the alarm is the first thing on the board.
    b.set_viewport_size({"width": 390, "height": 844})
    board_box = b.locator("figure.drako-board .board-scroll svg").first.bounding_box()
    assert board_box["width"] <= 390
    piece = b.locator('figure.drako-board svg g.piece[data-figure="xbow"] circle').bounding_box()
    assert piece["width"] >= 24
    oskar.screenshot("drako-reaction")
    shield = card_id("dwarves", "W11")
    click(b, f"defend-{shield}")

    # His last card is spent: the dwarves are out of cards and the dragon wins.
    wait_for_version(a, 8)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert match.state["winner"] == "dragon"
    assert match.state["dwarves"]["xbow"]["wounds"] == 0
    for page in (a, b):
        expect(page.locator("figure.drako-board")).to_contain_text(
            "The dwarves have played their last card and the dragon lives: the dragon wins."
        )
        expect(page.locator("ol.move-log")).to_contain_text(
            "The dwarves blocked the attack on Morin with Defence."
        )
        expect(page.locator("ol.move-log")).to_contain_text(
            "The dragon attacks Morin with strength 2."
        )
    assert Move.objects.filter(match=match).count() == 9  # the opening and eight moves
    vesna.screenshot("drako-end")
    vesna.assert_clean()
    oskar.assert_clean()

"""After a two-player resignation the end banner's row of the player who
resigned says what happened: their own name (no bot played the seat: the
match ended at once) and "Resigned", not "Bob (bot) … out of time or
resigned"."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.lobby import services as lobby
from games.play import safety
from tests.conftest import each_seat_moves
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_resigned_players_row_says_resigned(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    # Each seat moves first: a resignation before that aborts the match.
    match = each_seat_moves(match)
    safety.resign(user=bob, match=match)

    person = window("alice")
    log_in(person.page, live_server.url, "alice")
    person.page.goto(f"{live_server.url}/m/{match.pk}/")
    row = person.page.locator("#final th[scope=row]", has_text="bob")
    expect(row).to_contain_text("Resigned")
    text = row.inner_text()
    assert "(bot)" not in text and "out of time" not in text, text
    expect(person.page.locator("#final")).to_contain_text("bob resigned.")
    person.assert_clean()

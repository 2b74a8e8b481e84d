"""End-to-end: a player who resigns a three-player Nogi za pas! match sees
what a spectator sees.

Before resigning the player's page shows their shields ("Only you can see
this"); they resign in the browser, a bot plays the seat on, and the page
they land on (and the same page loaded again) no longer has a secrets
section nor the shields the bot now holds.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.catalog.nogi import presenter as nogi_presenter
from games.catalog.nogi.rules import shield_colours
from games.lobby import services as lobby
from games.models import MatchStatus, SeatStatus
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def _shield_words(state, seat: int) -> list[str]:
    return [
        ", ".join(nogi_presenter.colour_name(c) for c in shield)
        for shield in shield_colours(state, seat)
    ]


def test_after_resigning_the_seats_shields_are_no_longer_shown(live_server, window):
    players = [make_player(name) for name in ("ines", "jules", "kaja")]
    match = lobby.create_match(user=players[0], game_key="nogi", n_seats=3)
    for player in players[1:]:
        lobby.join_match(user=player, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    seat = match.seats.get(user=players[2])
    shields = _shield_words(match.state, seat.index)

    me = window("kaja")
    page = me.page
    log_in(page, live_server.url, "kaja")
    page.goto(f"{live_server.url}/m/{match.pk}/")
    secrets = page.locator("#my-secrets")
    expect(secrets).to_be_visible()
    for words in shields:
        expect(secrets).to_contain_text(words)

    page.locator("details.resign summary").click()
    page.locator("#resign-button").click()
    expect(page.locator(".messages, .message, [role=status]").first).to_contain_text(
        "You resigned."
    )
    seat.refresh_from_db()
    assert seat.status == SeatStatus.RESIGNED

    for _look in ("after the resignation", "loaded again"):
        expect(page.locator("#match-panel")).to_be_visible()
        expect(page.locator("#my-secrets")).to_have_count(0)
        expect(page.locator("details.resign")).to_have_count(0)
        match.refresh_from_db()
        body = page.locator("body").inner_text()
        for words in _shield_words(match.state, seat.index):
            assert words not in body, f"the resigned seat's shield {words} is still shown"
        page.reload()
    me.assert_clean()

"""Player names are links to their pages on the archive, the full log
(``/m/<id>/log/``) and the printable record, as everywhere else."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.lobby import services as lobby
from games.play import safety
from tests.conftest import each_seat_moves
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_names_link_to_players_on_the_archive_the_log_and_the_record(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    # Each seat moves first: a resignation before that aborts the match.
    match = each_seat_moves(match)
    safety.resign(user=bob, match=match)  # the log says "bob resigned …"

    person = window("alice")
    log_in(person.page, live_server.url, "alice")
    page = person.page
    page.goto(f"{live_server.url}/archive/")
    expect(page.locator("main a[href='/players/bob/']").first).to_be_visible()
    page.goto(f"{live_server.url}/m/{match.pk}/log/")
    expect(page.locator(".move-log a[href='/players/bob/']").first).to_be_visible()
    page.goto(f"{live_server.url}/m/{match.pk}/print/")
    expect(page.locator(".record-players a[href='/players/alice/']")).to_be_visible()
    expect(page.locator(".record-players a[href='/players/bob/']")).to_be_visible()
    expect(page.locator(".move-log a[href='/players/bob/']").first).to_be_visible()
    expect(page.locator("#record-result a[href='/players/bob/']")).to_be_visible()
    page.locator(".record-players a[href='/players/bob/']").click()
    expect(page).to_have_url(f"{live_server.url}/players/bob/")
    person.assert_clean()

"""End-to-end on a phone (390 px): live mode with two browsers on one match.

Alice and Bob both open their match: each page shows "Live" (every seated
player has it open). The poll is set to a minute, so only the events stream
can bring news quickly: a move committed for the player to move shows on the
other's page within a second, with the Live mark still there. When Bob
leaves the page, Alice's mark goes (here at the stream's next heartbeat:
a WSGI server learns that a page left only when it writes to it). Nothing scrolls sideways and axe finds
nothing serious on the page with the mark.
"""

from __future__ import annotations

import time

import pytest
from playwright.sync_api import expect

from games.engine import registry
from tests.conftest import play_one
from tests.e2e.helpers import log_in, make_player, version_of, wait_for_version
from tests.e2e.test_e2e_axe_states import serious_violations
from tests.players.conftest import start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def fits(page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


def test_a_move_shows_on_the_other_page_within_a_second_with_the_live_mark(
    live_server, window, settings
):
    # The poll would take a minute: what arrives sooner came by the stream.
    # A WSGI server (this live server, ``make run``) notices a page that left
    # when the stream next writes: a heartbeat a second.
    settings.SMOKI = {
        **settings.SMOKI,
        "POLL_SECONDS": 60,
        "LIVE_POLL_SECONDS": 60,
        "LIVE_HEARTBEAT_SECONDS": 1,
    }
    alice, bob = make_player("alice"), make_player("bob")
    match = start_match([alice, bob])
    pages = {}
    for name in ("alice", "bob"):
        person = window(name)
        person.page.set_viewport_size(PHONE)
        log_in(person.page, live_server.url, name)
        person.page.goto(f"{live_server.url}/m/{match.pk}/")
        pages[name] = person
    for person in pages.values():
        expect(person.page.locator("#live-mark")).to_be_visible()
        expect(person.page.locator("#live-mark")).to_contain_text("Live")

    nogi = registry.get("nogi")
    mover = match.seats.get(index=nogi.current_seats(match.state)[0]).user.username
    other = pages["bob" if mover == "alice" else "alice"].page
    before = version_of(other)
    started = time.monotonic()
    play_one(match, nogi)
    wait_for_version(other, before + 1, timeout=5_000)
    took = time.monotonic() - started
    print(f"the move showed on the other page {took:.2f} s after it was committed")
    assert took < 1.0, f"the move took {took:.2f} s to show on the other page"
    expect(other.locator("#live-mark")).to_be_visible()
    expect(other.get_by_role("button", name="Let's play live now")).to_be_visible()
    fits(other)
    assert serious_violations(other) == []

    # Bob leaves: Alice is no longer playing live.
    pages["bob"].page.goto(f"{live_server.url}/")
    expect(pages["alice"].page.locator("#live-mark")).to_be_hidden(timeout=5_000)
    pages["alice"].page.goto(f"{live_server.url}/")
    for person in pages.values():
        person.assert_clean()
    time.sleep(2)  # the streams end (at their next heartbeat) while the database is there


def test_without_the_stream_the_poll_still_brings_the_move(live_server, window, settings):
    """A browser without EventSource (or a stream that cannot connect) shows
    no Live mark and still gets the move by the poll."""
    settings.SMOKI = {**settings.SMOKI, "POLL_SECONDS": 1}
    alice, bob = make_player("alice"), make_player("bob")
    match = start_match([alice, bob])
    nogi = registry.get("nogi")
    mover = match.seats.get(index=nogi.current_seats(match.state)[0]).user.username
    other = "bob" if mover == "alice" else "alice"
    person = window(other)
    page = person.page
    page.add_init_script("delete window.EventSource;")
    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, other)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    before = version_of(page)
    play_one(match, nogi)
    wait_for_version(page, before + 1, timeout=10_000)
    expect(page.locator("#live-mark")).to_be_hidden()
    fits(page)
    person.assert_clean()

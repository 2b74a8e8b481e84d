"""End-to-end: the marks of what changed since a player's last visit, seen and heard.

A Seven Dragons match in which the clock played Ayla's first move (a card
drawn into her hand while she was away) and Bruno moved after it: Ayla opens
the match at her turn and reads "Since your last visit", with the new card
marked in her hand. The marked card is one of her choices; focused from the
keyboard it shows the focus ring, not the dashed "changed" outline alone
(screenshots of the card focused and not focused differ, and the focused one
holds the ring's green). The catch-up section and the list of moves scrolling
inside it are regions with names of their own (axe's landmark-unique). A
screen reader hears what changed: the marked card's link says "(changed)"
in its name, and each mark on the grid names the card it marks.
"""

from __future__ import annotations

import re

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page, expect

from accounts.models import Profile
from accounts.selectors import forget_preferences
from games.engine import registry
from games.engine.rng import seed_hash
from games.lobby import services as lobby
from games.models import ActorKind, Match, Seat
from games.play import services
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

FOCUS_GREEN = (0x1A, 0x7F, 0x37)
SEED = "changed-marks-1"
AXE = Axe()


def seven_dragons_after_a_timeout() -> tuple[Match, list]:
    """Ayla (seat 0) and Bruno; the clock plays Ayla's first move, then Bruno plays:
    Ayla is to move, and the card the clock drew for her is new in her hand."""
    players = [make_player("ayla"), make_player("bruno")]
    game = registry.get("seven_dragons")
    match = lobby.create_match(user=players[0], game_key="seven_dragons", n_seats=2)
    # A fixed deal, so every run reads the same hand (with a random one the
    # test once found no marked card in it).
    Match.objects.filter(pk=match.pk).update(seed=SEED, seed_hash=seed_hash(SEED))
    match.refresh_from_db()
    lobby.join_match(user=players[1], match=match)
    moved = set()
    for _step in range(10):
        match.refresh_from_db()
        seat = game.current_seats(match.state)[0]
        if seat == 0 and moved == {0, 1}:
            break
        kind = ActorKind.TIMEOUT if seat == 0 else ActorKind.PLAYER
        action = game.legal_actions(match.state, seat)[0]
        services.submit_action(
            match, players[seat], action, match.version, seat_index=seat, actor_kind=kind
        )
        moved.add(seat)
    assert game.current_seats(match.state) == [0]
    return match, players


def open_as_ayla(live_server, window, match: Match) -> Page:
    page = window("ayla").page
    log_in(page, live_server.url, "ayla")
    page.goto(f"{live_server.url}/m/{match.pk}/")
    expect(page.locator("#catch-up")).to_be_visible()
    return page


def _ring_box(page: Page, locator) -> dict:
    """The element's box with room for an outline drawn around it."""
    box = locator.bounding_box()
    return {
        "x": max(0, box["x"] - 9),
        "y": max(0, box["y"] - 9),
        "width": box["width"] + 18,
        "height": box["height"] + 18,
    }


def _has_colour(png: bytes, colour: tuple[int, int, int]) -> bool:
    from io import BytesIO

    from PIL import Image

    image = Image.open(BytesIO(png)).convert("RGB")
    return any(
        all(abs(a - b) <= 6 for a, b in zip(pixel, colour, strict=True))
        for pixel in image.getdata()
    )


def test_a_changed_card_shows_the_focus_ring_when_focused(live_server, window):
    match, _players = seven_dragons_after_a_timeout()
    page = open_as_ayla(live_server, window, match)
    card = page.locator("#my-secrets a.card:has(.changed-badge)").first
    expect(card).to_be_visible()
    card.scroll_into_view_if_needed()
    page.mouse.move(0, 0)
    clip = _ring_box(page, card)
    unfocused = page.screenshot(clip=clip)
    card.focus()
    assert card.evaluate("node => node.matches(':focus-visible')")
    focused = page.screenshot(clip=clip)
    same = focused == unfocused
    assert not same, "the focused changed card looks the same as before"
    assert _has_colour(focused, FOCUS_GREEN), "no focus ring around the focused changed card"
    assert not _has_colour(unfocused, FOCUS_GREEN)


def axe_findings(page: Page, rules: list[str]) -> list[str]:
    """axe's findings of ``rules``, whatever their impact, on the page as it is now."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.axe_script)
    found = page.evaluate(
        """rules => axe.run(document, {runOnly: {type: 'rule', values: rules}})
            .then(r => r.violations.map(v => v.id + ' (' + v.impact + '): '
                + v.nodes.map(n => n.target.join(' ')).join(', ')))""",
        rules,
    )
    return found


def test_the_catch_up_and_its_moves_are_told_apart(live_server, window):
    """The catch-up section and the scrolling list of its moves are two regions with
    two names (axe's landmark-unique), in English and in Polish."""
    match, players = seven_dragons_after_a_timeout()
    page = open_as_ayla(live_server, window, match)
    regions = page.locator("#catch-up, #catch-up [role=region]")
    expect(regions).to_have_count(2)
    assert axe_findings(page, ["landmark-unique"]) == []
    Profile.objects.filter(user=players[0]).update(language="pl")
    forget_preferences(players[0].pk)
    Seat.objects.filter(match=match, user=players[0]).update(last_seen_at=None)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    expect(page.locator("#catch-up")).to_be_visible()
    assert page.evaluate("document.documentElement.lang") == "pl"
    assert axe_findings(page, ["landmark-unique"]) == []


def test_a_screen_reader_hears_what_changed(live_server, window):
    """The changed card's link says "changed" in its name (its label would hide the
    badge's hidden word), and each mark on the grid says what changed, not the bare
    word: in English, then in Czech."""
    match, players = seven_dragons_after_a_timeout()
    page = open_as_ayla(live_server, window, match)
    for language, changed in [("en", "changed"), ("cs", "změněno")]:
        if language != "en":
            Profile.objects.filter(user=players[0]).update(language=language)
            forget_preferences(players[0].pk)
            Seat.objects.filter(match=match, user=players[0]).update(last_seen_at=None)
            page.goto(f"{live_server.url}/m/{match.pk}/")
        card = page.locator("#my-secrets a.card:has(.changed-badge)").first
        expect(card).to_have_accessible_name(re.compile(rf"\S \({changed}\)$"))
        titles = page.locator(".board-col svg g.changed-mark > title").evaluate_all(
            "nodes => nodes.map(n => n.textContent)"
        )
        assert titles, "borys's move is marked on the board"
        assert all(t.startswith(f"{changed}: ") and len(t) > len(changed) + 3 for t in titles), (
            titles
        )

"""Thumbnails of matches in play on a phone (390 px): "My matches", Watch and
the player page each show the board's small picture beside its match, loaded,
with its alt text and size, the page not scrolling sideways, and no serious
accessibility finding (axe)."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.lobby import services as lobby
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def test_the_lists_show_each_match_s_thumbnail_readable_on_a_phone(live_server, window):
    me = make_player("thumbs-me")
    matches = []
    for key in ("nogi", "drako", "seven_dragons"):
        match = lobby.create_match(user=me, game_key=key, n_seats=2)
        lobby.fill_with_bots(user=me, match=match)
        matches.append(match)
    person = window("player")
    person.page.set_viewport_size(PHONE)
    log_in(person.page, live_server.url, me.username)
    for label, path, within, table in [
        ("lobby", "/", "#my-matches", True),
        ("watch", "/watch/", "#live-matches", True),
        ("player", f"/players/{me.username}/", "#in-play", False),
    ]:
        person.page.goto(live_server.url + path)
        person.page.wait_for_load_state("networkidle")
        person.screenshot(f"thumbnails-{label}")
        for match in matches:
            image = person.page.locator(f'{within} img.thumb[src^="/m/{match.pk}/thumb.png?v="]')
            expect(image).to_be_visible()
            expect(image).to_have_attribute("alt", f"Board of match #{match.pk}")
            expect(image).to_have_attribute("width", "160")
            expect(image).to_have_attribute("height", "120")
            loaded = image.evaluate("img => img.complete && img.naturalWidth")
            assert loaded == 160, f"{label}: the thumbnail of #{match.pk} did not load"
            box = image.bounding_box()
            # Smaller on a phone, its shape kept: the board still reads.
            assert 100 <= box["width"] <= 160, (label, box)
            assert abs(box["height"] / box["width"] - 0.75) < 0.02, (label, box)
            # In whole pixels: a picture first laid out a fraction of a pixel
            # smaller was outgrown by the next one, which then counted as the
            # page's largest content, up to 0.3 s later (docs/performance.md).
            assert box["width"] == int(box["width"]), (label, box)
            assert box["height"] == int(box["height"]), (label, box)
        # A table's rows are whole pixels: every thumbnail sits at the same
        # fraction of a pixel, so all are painted the same size and a later one
        # never outgrows the first as the page's largest content.
        tops = [
            person.page.locator(
                f'{within} img.thumb[src^="/m/{match.pk}/thumb.png?v="]'
            ).bounding_box()["y"]
            for match in matches
        ]
        if table:
            assert all((top - tops[0]) == int(top - tops[0]) for top in tops), (label, tops)
        width = person.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{label}: the page scrolls sideways ({width} px)"
        assert not serious_violations(person.page), (label, serious_violations(person.page))
    person.assert_clean()

"""The reliability record on the player page, in the browser: at a phone's
width (390 px, no sideways scroll) in English, Polish and Czech, light and
dark, axe finds no serious or critical violation."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import Profile
from accounts.selectors import forget_preferences
from games.models import Seat, SeatStatus
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_axe_states import LOCALES, serious_violations
from tests.players.conftest import finish, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
WORDS = {"en": "Completed 66%", "pl": "Ukończone 66%", "cs": "Dokončeno 66 %"}


def test_the_reliability_record_reads_well_on_a_phone(live_server, window):
    base = live_server.url
    ann, ben = make_player("ann-rel"), make_player("ben-rel")
    for status in (SeatStatus.PLAYING, SeatStatus.RESIGNED, SeatStatus.TIMED_OUT):
        match = start_match([ann, ben])
        Seat.objects.filter(match=match, user=ann).update(status=status, strikes=1)
        finish(match, [2, 1])

    other = window("ben")
    other.page.set_viewport_size(PHONE)
    log_in(other.page, base, ben.username)
    found = {}
    for language in LOCALES:
        Profile.objects.filter(user=ben).update(language=language)
        forget_preferences(ben.pk)
        for scheme in ("light", "dark"):
            other.page.emulate_media(color_scheme=scheme)
            other.page.goto(f"{base}/players/{ann.username}/")
            other.page.wait_for_load_state("networkidle")
            page = other.page
            assert page.evaluate("document.documentElement.lang") == language
            expect(page.locator("#reliability")).to_contain_text(WORDS[language])
            width = page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{language}: scrolls sideways ({width} px)"
            other.screenshot(f"player-reliability-{language}-{scheme}")
            problems = serious_violations(page)
            if problems:
                found[f"{language} {scheme}"] = problems
    assert not found, found
    other.assert_clean()

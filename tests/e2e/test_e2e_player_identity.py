"""The player page with its statistics and identity, in the browser: a
picture uploaded through the profile's form, a country and a bio (the
profile page checked at 390 px in three languages); another
player reads the page with "You and <name>" at a phone's width (390 px, no
sideways scroll) and a desktop's, in English, Polish and Czech, light and
dark: axe finds no serious or critical violation."""

from __future__ import annotations

from io import BytesIO

import pytest
from PIL import Image
from playwright.sync_api import expect

from accounts.models import Profile
from accounts.selectors import forget_preferences
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_axe_states import LOCALES, serious_violations
from tests.players.conftest import finish, start_match

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def _photo_file(tmp_path) -> str:
    path = tmp_path / "me.jpg"
    out = BytesIO()
    Image.new("RGB", (800, 500), (30, 90, 160)).save(out, "JPEG")
    path.write_bytes(out.getvalue())
    return str(path)


def test_the_player_page_with_statistics_and_identity_reads_well_everywhere(
    live_server, window, tmp_path
):
    base = live_server.url
    ann, ben, cid = make_player("ann-id"), make_player("ben-id"), make_player("cid-id")
    for ranks in ([1, 2], [2, 1], [1, 2]):
        finish(start_match([ann, ben]), ranks)
    finish(start_match([ann, ben, cid]), [2, 1, 3])
    finish(start_match([ann, ben], "drako", options={"sides": "seat1_dragon"}), [1, 2])

    # Ann fills in her identity on the profile page, at a phone's width.
    own = window("ann")
    own.page.set_viewport_size(PHONE)
    log_in(own.page, base, ann.username)
    own.page.goto(f"{base}/profile/")
    form = own.page.locator('form[action="/profile/identity/"]')
    form.locator('input[name="picture_file"]').set_input_files(_photo_file(tmp_path))
    form.locator('select[name="country"]').select_option("PL")
    form.locator('textarea[name="bio"]').fill("Dragons on Sundays.\nNogi on weekdays.")
    form.locator('button[type="submit"]').click()
    expect(own.page.locator("#identity")).to_be_visible()
    profile = Profile.objects.get(user=ann)
    assert profile.picture and profile.country.code == "PL"
    # Her profile page with the identity form, in each language.
    for language in LOCALES:
        Profile.objects.filter(user=ann).update(language=language)
        forget_preferences(ann.pk)
        own.page.goto(f"{base}/profile/")
        own.page.wait_for_load_state("networkidle")
        assert own.page.evaluate("document.documentElement.lang") == language
        expect(own.page.locator('input[name="remove_picture"]')).to_be_visible()
        assert own.page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
        assert serious_violations(own.page) == [], language
        own.screenshot(f"profile-identity-{language}-phone")

    # Ben reads her page in each language, at both widths, in both themes.
    other = window("ben")
    log_in(other.page, base, ben.username)
    found = {}
    for language in LOCALES:
        Profile.objects.filter(user=ben).update(language=language)
        forget_preferences(ben.pk)
        for label, size, scheme in [("phone", PHONE, "light"), ("desktop", DESKTOP, "dark")]:
            other.page.emulate_media(color_scheme=scheme)
            other.page.set_viewport_size(size)
            other.page.goto(f"{base}/players/{ann.username}/")
            other.page.wait_for_load_state("networkidle")
            page = other.page
            assert page.evaluate("document.documentElement.lang") == language
            expect(page.locator("#you-and-them #meeting-nogi")).to_be_visible()
            expect(page.locator("#stats-nogi table")).to_be_visible()
            expect(page.locator("#stats-drako table")).to_be_visible()
            expect(page.locator("#bio")).to_contain_text("Dragons on Sundays.")
            expect(page.locator("#country")).to_be_visible()
            picture = page.locator("#identity img.avatar")
            assert picture.get_attribute("src").endswith(".webp")
            assert picture.evaluate("img => img.complete && img.naturalWidth") == 256
            if size is PHONE:
                width = page.evaluate("document.documentElement.scrollWidth")
                assert width <= PHONE["width"], f"{language}: scrolls sideways ({width} px)"
            other.screenshot(f"player-identity-{language}-{label}")
            problems = serious_violations(page)
            if problems:
                found[f"{language} {label}"] = problems
    assert not found, found
    own.assert_clean()
    other.assert_clean()

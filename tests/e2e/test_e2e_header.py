"""The top bar on a phone (issue 31, item 6): at 390 x 844 every control of the
header is on screen or in the menu, which opens without the script, and
nothing scrolls sideways; in Polish and Czech too, whose words are longer.
The site's places (tournaments, ladders, leaderboards, the archive) are in the
bar on a desktop and in the menu on a phone, for a player and a visitor."""

from __future__ import annotations

import pytest
from playwright.sync_api import Locator, Page, expect

from accounts.models import Profile
from accounts.selectors import forget_preferences
from games.lobby import invitations
from games.lobby import services as lobby
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}


def assert_on_screen(page: Page, control: Locator, what: str) -> None:
    expect(control).to_be_visible()
    box = control.bounding_box()
    assert box is not None, what
    assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], (
        f"{what} is off-screen: {box}"
    )
    assert box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"], (
        f"{what} is off-screen: {box}"
    )
    # Nothing covers it: the point at its middle belongs to it.
    assert page.evaluate(
        """([x, y, el]) => el.contains(document.elementFromPoint(x, y))""",
        [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, control.element_handle()],
    ), f"{what} is covered"


def assert_no_sideways_scroll(page: Page) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    nav = page.locator("header.topbar nav")
    assert nav.evaluate("el => el.scrollWidth <= el.clientWidth"), "the header scrolls sideways"


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_the_phone_header_fits_and_its_menu_holds_the_rest(language, live_server, window):
    base = live_server.url
    user = make_player(f"header-{language}")
    other = make_player(f"host-{language}")
    # A long display name and an unread notification (an invitation) in the bar.
    match = lobby.create_match(user=other, game_key="nogi", n_seats=3, visibility="private")
    invitations.invite_user(user=other, match=match, username=user.username)
    person = window("player")
    page = person.page
    log_in(page, base, user.username)
    Profile.objects.filter(user=user).update(
        language=language, display_name="Maximiliana Wolkenstein-Trauttmansdorff"
    )
    forget_preferences(user.pk)
    page.set_viewport_size(PHONE)
    page.emulate_media(media="screen")
    page.goto(base + "/")
    bar = page.locator("header.topbar")
    for link in bar.locator("a.brand, nav > a:not(.site-link)").all():
        assert_on_screen(page, link, f"the link {link.inner_text()!r}")
    summary = bar.locator("details.menu > summary")
    assert_on_screen(page, summary, "the menu")
    expect(bar.locator("#unread-count")).to_have_text("1")
    assert_no_sideways_scroll(page)
    menu = bar.locator("details.menu .menu-items")
    expect(menu).to_be_hidden()
    summary.click()
    for control, what in [
        (menu.locator('a[href="/profile/"]'), "the profile link"),
        (menu.locator('a[href="/notifications/"]'), "the notifications"),
        (menu.locator("select[name=language]"), "the language"),
        (menu.locator(".language-form button"), "the language's button"),
        (menu.locator('form[action="/accounts/logout/"] button'), "Log out"),
    ]:
        assert_on_screen(page, control, what)
    assert_no_sideways_scroll(page)
    # The language chosen in the menu becomes the profile's, and the page comes back in it.
    other_language = "cs" if language != "cs" else "pl"
    menu.locator("select[name=language]").select_option(other_language)
    menu.locator(".language-form button").click()
    expect(page.locator("html")).to_have_attribute("lang", other_language)
    assert page.url == base + "/"
    assert Profile.objects.get(user=user).language == other_language
    # Log out from the menu.
    page.locator("header.topbar details.menu > summary").click()
    page.locator('header.topbar form[action="/accounts/logout/"] button').click()
    expect(page.locator("header.topbar nav a[href^='/accounts/login/']")).to_be_visible()
    person.assert_clean()


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_a_visitors_phone_header_fits_and_offers_the_language(language, live_server, browser):
    context = browser.new_context(
        viewport=PHONE, locale={"en": "en-GB", "pl": "pl-PL", "cs": "cs-CZ"}[language]
    )
    page = context.new_page()
    page.goto(live_server.url + "/")
    expect(page.locator("html")).to_have_attribute("lang", language)
    bar = page.locator("header.topbar")
    for link in bar.locator("a.brand, nav > a:not(.site-link)").all():
        assert_on_screen(page, link, f"the link {link.inner_text()!r}")
    summary = bar.locator("details.menu > summary")
    assert_on_screen(page, summary, "the language menu")
    assert_no_sideways_scroll(page)
    summary.click()
    assert_on_screen(page, bar.locator("select[name=language]"), "the language")
    assert_on_screen(page, bar.locator(".language-form button"), "the language's button")
    assert_no_sideways_scroll(page)
    bar.locator("select[name=language]").select_option("pl" if language != "pl" else "en")
    bar.locator(".language-form button").click()
    expect(page.locator("html")).to_have_attribute("lang", "pl" if language != "pl" else "en")
    context.close()


SITE_PLACES = ["/tournaments/", "/ladders/", "/leaderboards/", "/archive/"]


@pytest.mark.parametrize("who", ["player", "visitor"])
def test_the_sites_places_are_in_the_bar_and_on_a_phone_in_the_menu(who, live_server, browser):
    base = live_server.url
    context = browser.new_context(viewport={"width": 1280, "height": 800}, locale="pl-PL")
    page = context.new_page()
    if who == "player":
        user = make_player("places")
        log_in(page, base, user.username)
        Profile.objects.filter(user=user).update(language="pl")
        forget_preferences(user.pk)
    page.goto(base + "/")
    expect(page.locator("html")).to_have_attribute("lang", "pl")
    bar = page.locator("header.topbar")
    for path in SITE_PLACES:
        expect(bar.locator(f'nav > a[href="{path}"]')).to_be_visible()
    # One row on a desktop: every link of the bar on the brand's line.
    brand = bar.locator("a.brand").bounding_box()
    for link in bar.locator("nav > a, nav > details > summary").all():
        box = link.bounding_box()
        assert abs(box["y"] - brand["y"]) < brand["height"], f"{link.inner_text()!r} wraps"
    page.set_viewport_size(PHONE)
    page.goto(base + "/")
    for path in SITE_PLACES:
        expect(bar.locator(f'nav > a[href="{path}"]')).to_be_hidden()
    menu = bar.locator("details.menu")
    menu.locator("summary").click()
    for path in SITE_PLACES:
        assert_on_screen(page, menu.locator(f'.menu-items a[href="{path}"]'), path)
    assert_no_sideways_scroll(page)
    menu.locator('.menu-items a[href="/leaderboards/"]').click()
    expect(page).to_have_url(base + "/leaderboards/")
    context.close()

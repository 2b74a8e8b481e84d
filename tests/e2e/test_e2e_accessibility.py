"""Accessibility and phones, in the browser.

Every registered game's match page is drawn at a phone's width (390 px), a
desktop's and a desktop's in the dark theme, with screenshots kept in
test-results/: axe-core (via axe-playwright-python) finds no serious or
critical violation, and at 390 px the page does not scroll sideways. The
site's other pages, and every page state in both themes and three
languages, are in test_e2e_axe_states.py.
"""

from __future__ import annotations

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from games.engine import registry
from games.lobby import services as lobby
from tests.conformance.kit import GAME_KEYS
from tests.e2e.test_e2e_every_game import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SERIOUS = {"serious", "critical"}
PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}


def serious_violations(page: Page) -> list[str]:
    results = Axe().run(page)
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {[n['target'] for n in v['nodes']][:3]}"
        for v in results.response["violations"]
        if v["impact"] in SERIOUS
    ]


@pytest.mark.parametrize("key", GAME_KEYS)
def test_every_match_page_is_accessible_at_phone_and_desktop_widths(key, live_server, window):
    base = live_server.url
    game = registry.get(key)
    user = make_player(f"{key[:10]}-axe")
    match = lobby.create_match(user=user, game_key=key, n_seats=game.min_players)
    lobby.fill_with_bots(user=user, match=match)
    person = window("player")
    log_in(person.page, base, user.username)
    problems = {}
    for label, size, scheme in [
        ("phone", PHONE, "light"),
        ("desktop", DESKTOP, "light"),
        ("dark", DESKTOP, "dark"),
    ]:
        # The dark theme (the device's setting, the profile's default "auto") with the
        # boards' icons: axe checks its contrast too.
        person.page.emulate_media(color_scheme=scheme)
        person.page.set_viewport_size(size)
        person.page.goto(f"{base}/m/{match.pk}/")
        person.page.wait_for_load_state("networkidle")
        person.screenshot(f"match-{key}-{label}")
        problems[label] = serious_violations(person.page)
        if label == "phone":
            width = person.page.evaluate("document.documentElement.scrollWidth")
            assert width <= PHONE["width"], f"{key}: the page scrolls sideways ({width} px)"
    assert not any(problems.values()), problems
    person.assert_clean()

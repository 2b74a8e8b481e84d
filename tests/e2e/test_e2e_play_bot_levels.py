"""End-to-end: "Play a bot now" shows which level of bot it will start and
what each level is, with the default (the heuristic bot) visibly chosen,
and starts the level the player picks (issue 39, item 11)."""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import expect

from games.models import Match
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

LEVELS = ["random", "heuristic", "strong"]


def _check_levels(form) -> None:
    levels = form.locator("fieldset.bot-levels")
    expect(levels.locator("legend")).to_have_text("Bot level")
    radios = levels.locator('input[type="radio"][name="level"]')
    expect(radios).to_have_count(3)
    abouts = []
    for i, level in enumerate(LEVELS):
        radio = radios.nth(i)
        expect(radio).to_be_visible()
        expect(radio).to_have_attribute("value", level)
        if level == "heuristic":
            expect(radio).to_be_checked()
        else:
            expect(radio).not_to_be_checked()
        label = levels.locator("label.bot-level").nth(i)
        expect(label).to_contain_text(f"{level} bot")
        about = label.locator(".bot-level-about")
        expect(about).to_be_visible()
        abouts.append(about.inner_text().strip())
    assert all(abouts) and len(set(abouts)) == 3, abouts


def test_play_a_bot_now_shows_each_level_and_starts_the_chosen_one(live_server, window):
    make_player("alice")
    me = window("alice")
    page = me.page
    log_in(page, live_server.url, "alice")

    page.goto(live_server.url + "/")
    form = page.locator("#game-nogi form.play-bot-form")
    _check_levels(form)
    # The level's choice and the button are in view together on the tile.
    form.locator("label.bot-level", has_text="strong bot").click()
    expect(form.locator('input[value="strong"]')).to_be_checked()
    form.get_by_role("button", name="Play a bot now").click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"))
    match = Match.objects.get()
    assert [s.bot_level for s in match.seats.filter(is_bot=True)] == ["strong"]
    expect(page.locator("#match-panel")).to_contain_text("(strong bot)")

    page.goto(live_server.url + "/games/drako/how-to-play/")
    _check_levels(page.locator("form.play-bot-form"))
    me.assert_clean()

    page.set_viewport_size({"width": 390, "height": 844})
    page.goto(live_server.url + "/")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    _check_levels(page.locator("#game-drakon form.play-bot-form"))

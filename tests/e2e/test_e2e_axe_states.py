"""axe-core over every page state, in the light and the dark theme, in English,
Polish and Czech: no serious or critical violation anywhere.

The states: what a visitor reads (the lobby, logging in, signing up, a password
reset, the watch page, a match watched, the about page) and what a player
reads (the lobby with the top bar's menu open, "your turn" rows, an
invitation, an open match and finished ones; the bell; the profile; both
steps of the new-match form (a game without options and one with); every game's How to play; every game's match
page at the player's turn, one click down its choices, and finished with its
end banner; an open match gathering players; a full log; a fairness check).

Each page is loaded once per language and checked in the light theme, then
again after the device switches to dark (the profile's default follows the
device), so a state costs one load and two axe runs. One test per language,
so the three can run side by side.
"""

from __future__ import annotations

import time

import pytest
from axe_playwright_python.sync_playwright import Axe
from playwright.sync_api import Page

from accounts.models import Profile
from accounts.selectors import forget_preferences
from games.engine import registry
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Match, MatchStatus
from games.play import services
from tests.conformance.kit import GAME_KEYS
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SERIOUS = {"serious", "critical"}
LOCALES = {"en": "en-GB", "pl": "pl-PL", "cs": "cs-CZ"}
AXE = Axe()


def serious_violations(page: Page) -> list[str]:
    """axe's serious and critical findings on the page as it is now. axe is put into
    the page once per load (the dark theme's run reuses it), and only what the report
    needs comes back from the browser."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(AXE.axe_script)
    violations = page.evaluate(
        """axe.run(document, {resultTypes: ['violations']}).then(r => r.violations.map(v => (
            {id: v.id, impact: v.impact, help: v.help, targets: v.nodes.map(n => n.target)})))"""
    )
    return [
        f"{v['id']} ({v['impact']}): {v['help']} at {v['targets'][:3]}"
        for v in violations
        if v["impact"] in SERIOUS
    ]


def to_the_humans_turn(match: Match) -> Match:
    """Let the bots move until a human is to move (or the match is over)."""
    services.play_bot_turns(match.pk, limit=500)
    match.refresh_from_db()
    return match


def play_to_the_end(match: Match, user) -> Match:
    """The player and the bots play on until the match ends (the player's
    choices spread over the legal moves, the same on every run)."""
    game = registry.get(match.game_key)
    seat = match.seats.get(user=user).index
    for step in range(3000):
        match = to_the_humans_turn(match)
        if match.status != MatchStatus.ACTIVE:
            return match
        legal = game.legal_actions(match.state, seat)
        services.submit_action(match, user, legal[(step * 7) % len(legal)], match.version)
    raise AssertionError(f"{match.game_key} did not end")


def matches_for(user, host, guest) -> dict:
    """Every match the player's pages show: per game, one at their turn and one
    finished; an open match they created, one they may join and an invitation."""
    found: dict = {"turn": {}, "finished": {}}
    for key in GAME_KEYS:
        game = registry.get(key)
        for kind in ("turn", "finished"):
            match = lobby.create_match(user=user, game_key=key, n_seats=game.min_players)
            lobby.fill_with_bots(user=user, match=match)
            match = to_the_humans_turn(match)
            if kind == "finished":
                match = play_to_the_end(match, user)
            found[kind][key] = match
    found["gathering"] = lobby.create_match(user=user, game_key="nogi", n_seats=3)
    found["joinable"] = lobby.create_match(user=host, game_key="seven_dragons", n_seats=3)
    invited = lobby.create_match(user=host, game_key="drako", n_seats=2, visibility="private")
    invitations.invite_user(user=host, match=invited, username=guest.username)
    return found


def one_step_down(page: Page) -> bool:
    """Follow the first choice that leads to a further choice (a plain link); False
    when every choice of the turn is a whole move."""
    link = page.locator("#choices a.choice[data-path]").first
    if not link.count():
        return False
    page.goto(page.url.split("?")[0] + "?path=" + link.get_attribute("data-path"))
    return True


@pytest.mark.parametrize("language", list(LOCALES))
def test_no_serious_violation_in_any_page_state_theme_or_language(language, live_server, browser):
    base = live_server.url
    player = make_player(f"axe-{language}")
    host = make_player(f"host-{language}")
    started = time.monotonic()
    matches = matches_for(player, host, player)
    print(f"matches set up in {time.monotonic() - started:.1f} s")
    assert all(m.status == MatchStatus.FINISHED for m in matches["finished"].values())
    found: dict[str, list[str]] = {}
    checked = 0

    def check(page: Page, label: str) -> None:
        nonlocal checked
        page.wait_for_load_state("networkidle")
        assert page.evaluate("document.documentElement.lang") == language, label
        for scheme in ("light", "dark"):
            page.emulate_media(color_scheme=scheme)
            problems = serious_violations(page)
            checked += 1
            if problems:
                found[f"{label} ({scheme})"] = problems
        page.emulate_media(color_scheme="light")

    def visit(page: Page, path: str, label: str | None = None) -> None:
        page.goto(base + path)
        if path == "/":
            # The lobby is checked with the top bar's menu open (its links and language form).
            page.locator("header.topbar details.menu > summary").click()
        check(page, label or path)

    # A visitor, in the browser's language.
    visitor = browser.new_context(viewport={"width": 1280, "height": 900}, locale=LOCALES[language])
    page = visitor.new_page()
    watched = matches["turn"]["nogi"]
    for path in [
        "/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/watch/",
        f"/m/{watched.pk}/",
        "/about/",
    ]:
        visit(page, path, f"visitor {path}")
    visitor.close()

    # The player, in the profile's language.
    context = browser.new_context(viewport={"width": 1280, "height": 900}, locale=LOCALES[language])
    page = context.new_page()
    log_in(page, base, player.username)
    Profile.objects.filter(user__in=[player, host]).update(language=language)
    forget_preferences(player.pk)
    forget_preferences(host.pk)
    for path in ["/", "/watch/", "/profile/", "/notifications/", "/matches/new/"]:
        visit(page, path)
    # The form's second step: a game without options and one with them.
    for key in ["nogi", "drakon"]:
        visit(page, f"/matches/new/?game={key}")
    for key in GAME_KEYS:
        visit(page, f"/games/{key}/how-to-play/")
        match = matches["turn"][key]
        visit(page, f"/m/{match.pk}/", f"{key} at the player's turn")
        assert page.locator("#choices").count(), f"{key}: not the player's turn"
        if one_step_down(page):
            check(page, f"{key} one click down")
        visit(page, f"/m/{matches['finished'][key].pk}/", f"{key} finished")
    finished = matches["finished"]["nogi"]
    visit(page, f"/m/{matches['gathering'].pk}/", "an open match of mine")
    visit(page, f"/m/{matches['joinable'].pk}/", "an open match to join")
    visit(page, f"/m/{finished.pk}/log/", "the full log")
    visit(page, f"/m/{finished.pk}/verify/", "the fairness check")
    context.close()
    print(f"axe ran {checked} times in {language}")
    assert not found, found

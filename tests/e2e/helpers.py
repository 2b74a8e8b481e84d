"""Steps the browser tests share: a player with a verified address, logging
in through the form, a new match through the lobby's form, the panel's
version and a click on a board element."""

from __future__ import annotations

import re

from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, expect

PASSWORD = "Smoke-Test-5172!"
POLL_MS = 20_000  # the panel polls every 5 s: allow a few rounds


def make_player(username: str):
    """A user with a verified address (mandatory verification lets nobody in without one)."""
    user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    return user


def log_in(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/accounts/login/")
    form = page.locator('main form[action="/accounts/login/"]')
    form.locator('input[name="login"]').fill(username)
    form.locator('input[name="password"]').fill(PASSWORD)
    form.locator('button[type="submit"]').click()
    expect(page.locator("header.topbar nav")).to_contain_text(username)
    expect(page.locator("header.topbar").get_by_role("link", name="New match")).to_be_visible()


def new_match(page: Page, key: str, **selects: str) -> int:
    """Create a match of ``key`` from the top bar's "New match", choosing each
    ``select`` of the form in the order given; the new match's id."""
    page.locator("header.topbar").get_by_role("link", name="New match").click()
    form = page.locator("form#create-match")
    page.locator(f'#choose-game a[href$="?game={key}"]').click()
    for name, value in selects.items():
        form.locator(f'select[name="{name}"]').select_option(value)
    form.locator('button[type="submit"]').click()
    expect(page).to_have_url(re.compile(r"/m/\d+/$"))
    return int(re.search(r"/m/(\d+)/$", page.url).group(1))


def version_of(page: Page) -> int:
    return int(page.locator("#match-panel").get_attribute("data-version"))


def wait_for_version(page: Page, version: int, timeout: int = POLL_MS) -> None:
    expect(page.locator("#match-panel")).to_have_attribute(
        "data-version", str(version), timeout=timeout
    )


def click_on_board(page: Page, board: str, path: str) -> None:
    """Click the element of ``board`` (or of the player's own secrets) offering
    ``path``, never the list of buttons below; wait for the move or the next step."""
    target = page.locator(f'{board} [data-path="{path}"], #my-secrets [data-path="{path}"]').first
    expect(target).to_be_visible()
    final = target.get_attribute("hx-post") is not None
    before = version_of(page)
    target.click()
    if final:
        wait_for_version(page, before + 1)
    else:
        expect(page.locator(f'#choices [data-path^="{path}."]').first).to_be_attached()


def nogi_page_before_a_move(live_server, window, names: tuple[str, str], plies: int, setup=None):
    """A two-player Nogi match played ``plies`` moves through the services, and
    the page of the player to move, logged in and open on the match:
    (match, the mover, the page). ``setup(match, players)`` runs before the moves."""
    from games.engine import registry
    from games.lobby import services as lobby
    from tests.conftest import play_one

    players = [make_player(name) for name in names]
    nogi = registry.get("nogi")
    # The deal is random: a match that ends within ``plies`` moves (a race
    # can) is left finished and another one dealt.
    for _deal in range(20):
        match = lobby.create_match(user=players[0], game_key="nogi", n_seats=2)
        lobby.join_match(user=players[1], match=match)
        if setup is not None:
            setup(match, players)
        for pick in range(plies):
            match.refresh_from_db()
            if not nogi.current_seats(match.state):
                break
            play_one(match, nogi, choose=pick)
        match.refresh_from_db()
        if nogi.current_seats(match.state):
            break
    mover = players[nogi.current_seats(match.state)[0]]
    page = window("mover").page
    log_in(page, live_server.url, mover.username)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    return match, mover, page

"""The place to act is in view after every step, in every game, on a desktop and a phone.

For every registered game, a match against bots is played a few moves in
through the services, and the player opens it at 1280 x 800 and at 390 x 844.
At the first step and after each click down the move's choices (clicked on
the board, as a player does, scrolling to the choice first), the choices the
board highlights are inside the window, not under the phone's sticky "Your
move" box, and inside the board's own scrolling box: every one of them when
they fit together in that area, else at least the first. A step with no choice
on the board shows the "Your move" box's first choice instead.

Drakon's lair uses the width it has: in the middle of a match its labyrinth
fills the board's column at 1280 x 800 (the issue saw a 280 px board in a 768
px column), and no room is larger than 140 px.
"""

from __future__ import annotations

import pytest
from django.utils import timezone
from playwright.sync_api import Page, expect

from games.engine import registry
from games.engine.rng import seed_hash
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Seat
from games.play import services
from tests.conformance.kit import GAME_KEYS
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

SCREENS = {"desktop": {"width": 1280, "height": 800}, "phone": {"width": 390, "height": 844}}
OPENING_MOVES = 4  # the player's own moves before the page is opened
STEPS = 4  # clicks down one move at most
LARGEST_ROOM = 140

#: The usable area (the window less the phone's sticky "Your move" box) and, for
#: each choice the board highlights, its box clipped to its scrolling box.
MEASURE = """() => {
  const panel = document.getElementById('match-panel');
  let bottom = window.innerHeight;
  const box = document.getElementById('choices');
  if (box && getComputedStyle(box).position === 'sticky') {
    bottom = Math.min(bottom, box.getBoundingClientRect().top);
  }
  const area = {left: 0, top: 0, right: window.innerWidth, bottom: bottom};
  const seen = el => el.getClientRects().length > 0;
  const found = Array.from(panel.querySelectorAll(
    '.board .board-choice[data-path], #my-secrets .board-choice[data-path]')).filter(seen);
  const choices = found.map(el => {
    const r = el.getBoundingClientRect();
    let clip = {left: area.left, top: area.top, right: area.right, bottom: area.bottom};
    const scroller = el.closest('.board-scroll');
    if (scroller) {
      const s = scroller.getBoundingClientRect();
      clip = {left: Math.max(clip.left, s.left), top: Math.max(clip.top, s.top),
              right: Math.min(clip.right, s.right), bottom: Math.min(clip.bottom, s.bottom)};
    }
    return {path: el.dataset.path, left: r.left, top: r.top, right: r.right,
            bottom: r.bottom, clip: clip};
  });
  const first = panel.querySelector('#choices .choice-buttons .choice');
  const list = first && seen(first) ? first.getBoundingClientRect() : null;
  return {area: area, choices: choices,
          list: list && {left: list.left, top: list.top, right: list.right, bottom: list.bottom}};
}"""


def _inside(box: dict, area: dict) -> bool:
    return (
        box["left"] >= area["left"] - 1
        and box["top"] >= area["top"] - 1
        and box["right"] <= area["right"] + 1
        and box["bottom"] <= area["bottom"] + 1
    )


def _fits(choices: list[dict]) -> bool:
    """Whether the choices' union fits the smallest area they are seen through."""
    union = {
        "left": min(c["left"] for c in choices),
        "top": min(c["top"] for c in choices),
        "right": max(c["right"] for c in choices),
        "bottom": max(c["bottom"] for c in choices),
    }
    clip = choices[0]["clip"]
    return (
        union["right"] - union["left"] <= clip["right"] - clip["left"]
        and union["bottom"] - union["top"] <= clip["bottom"] - clip["top"]
    )


def assert_in_view(page: Page, where: str) -> list[dict]:
    seen = page.evaluate(MEASURE)
    choices = seen["choices"]
    if not choices:
        assert seen["list"] is not None, f"{where}: no choice at all"
        assert _inside(seen["list"], seen["area"]), f"{where}: the first choice {seen['list']}"
        return choices
    outside = [c for c in choices if not _inside(c, c["clip"])]
    if _fits(choices):
        assert not outside, (
            f"{where}: {len(outside)} of {len(choices)} choices out of view, "
            f"e.g. {outside[0]['path']} at {outside[0]['top']:.0f}..{outside[0]['bottom']:.0f} "
            f"(seen: {outside[0]['clip']['top']:.0f}..{outside[0]['clip']['bottom']:.0f})"
        )
    else:
        assert len(outside) < len(choices), f"{where}: none of {len(choices)} choices in view"
    return choices


def a_match_some_moves_in(key: str, user) -> Match:
    game = registry.get(key)
    match = lobby.create_match(user=user, game_key=key, n_seats=game.min_players)
    # The same deal on every run.
    seed = f"in-view-{key}"
    Match.objects.filter(pk=match.pk).update(seed=seed, seed_hash=seed_hash(seed))
    match.refresh_from_db()
    lobby.fill_with_bots(user=user, match=match)
    seat = match.seats.get(user=user).index
    for step in range(OPENING_MOVES + 1):
        services.play_bot_turns(match.pk, limit=200)
        match.refresh_from_db()
        assert match.status == MatchStatus.ACTIVE, f"{key}: over too soon"
        if step == OPENING_MOVES:
            break
        legal = game.legal_actions(match.state, seat)
        services.submit_action(match, user, legal[(step * 5) % len(legal)], match.version)
    assert seat in game.current_seats(match.state)
    # Seen just now: the page opens without "Since your last visit" above the board.
    Seat.objects.filter(match=match, user=user).update(last_seen_at=timezone.now())
    return match


def _next_step(page: Page, choices: list[dict]) -> str | None:
    """The first choice on the board that leads further (not a whole move)."""
    for choice in choices:
        target = page.locator(f'#match-panel [data-path="{choice["path"]}"]').first
        if target.get_attribute("hx-get") is not None:
            return choice["path"]
    return None


@pytest.mark.parametrize("key", GAME_KEYS)
@pytest.mark.parametrize("screen", sorted(SCREENS))
def test_the_boards_choices_are_in_view_after_every_step(key, screen, live_server, window):
    user = make_player(f"{key[:10]}-{screen[:2]}v")
    match = a_match_some_moves_in(key, user)
    person = window("player")
    page = person.page
    page.set_viewport_size(SCREENS[screen])
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    page.wait_for_load_state("networkidle")
    choices = assert_in_view(page, f"{key} {screen} on opening")
    for _step in range(STEPS):
        path = _next_step(page, choices)
        if path is None:
            break
        page.locator(
            f'#match-panel .board [data-path="{path}"], #my-secrets [data-path="{path}"]'
        ).first.click()
        expect(page.locator(f'#choices [data-path^="{path}."]').first).to_be_attached()
        page.wait_for_timeout(300)  # htmx settles, the page's script scrolls
        choices = assert_in_view(page, f"{key} {screen} after {path}")
    # Only now: a screenshot marks the page's inputs with a style, which a swap would copy.
    person.screenshot(f"in-view-{key}-{screen}")
    person.assert_clean()


#: The scale the lair is drawn at: its box, with the drawing centred inside at the
#: largest size that fits (the SVG's default preserveAspectRatio).
SCALE = """svg => { const box = svg.getBoundingClientRect(); const vb = svg.viewBox.baseVal;
  return {scale: Math.min(box.width / vb.width, box.height / vb.height),
          width: vb.width, height: vb.height}; }"""


@pytest.mark.parametrize("key", ["drakon", "drakon_classic"])
def test_drakons_lair_uses_the_width_it_has(key, live_server, window):
    """At 1280 x 800, a few moves in, the lair is drawn as large as the board's column
    and 55 % of the window's height allow (the hand and "Your move" stay on the first
    screen), with rooms no larger than 140 px."""
    user = make_player(f"{key[:9]}-wide")
    match = a_match_some_moves_in(key, user)
    person = window("player")
    page = person.page
    page.set_viewport_size(SCREENS["desktop"])
    log_in(page, live_server.url, user.username)
    page.goto(f"{live_server.url}/m/{match.pk}/")
    board = page.locator("#match-panel figure.drakon-board")
    drawn = board.locator("svg.labyrinth").evaluate(SCALE)
    column = page.locator("#match-panel .board-col").bounding_box()
    room = drawn["scale"] * 60  # a room's square is its cell less 4 units
    person.screenshot(f"drakon-wide-{key}")
    assert room <= LARGEST_ROOM, drawn
    room_for = min(column["width"] / drawn["width"], 0.55 * 800 / drawn["height"])
    assert drawn["scale"] >= 0.95 * min(room_for, LARGEST_ROOM / 60), (
        f"{key}: the lair is drawn at {drawn['scale']:.2f} px a unit, "
        f"{drawn['width'] * drawn['scale']:.0f} px wide in a {column['width']:.0f} px column"
    )
    first = page.locator("#my-secrets .hand-tile.choosable").first
    tile = first.bounding_box()
    assert tile["y"] + tile["height"] <= 800, f"{key}: the hand starts {tile['y']:.0f} px down"
    person.assert_clean()

"""End-to-end: two people play a short match of Drakon's first edition in real browsers.

Debian's chromium (``/usr/bin/chromium``) through Playwright against
``live_server``. Accounts come from the ORM; logging in, creating the match
(first edition, Heroes! on), joining it and every move go through the real
pages: rooms are placed by board clicks (a hand tile, a free cell, a rotation
preview), heroes move by a click on a room, and every question a room or a
character asks is answered by clicks. The database decides what to click and
what both pages must show: the first edition's rooms in the key, its
characters, its options, coin counts and sentences.
"""

from __future__ import annotations

import re

import pytest
from playwright.sync_api import Page, expect

from games.catalog.drakon import components as C
from games.catalog.drakon import presenter as drakon_presenter
from games.catalog.drakon.rules import MASKS, tiles_of
from games.models import Match, MatchStatus, Move
from tests.e2e.drakon_helpers import (
    Planner,
    attributes,
    board,
    click_deeper,
    is_final,
    room_of,
)
from tests.e2e.helpers import POLL_MS, log_in, make_player, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEP_MS = 10_000
TURNS = 20  # at most this many decisions played through the pages: the deal is
# random, so a hero may need a few placements before a room it can enter is open
ASKS_WHEN_PLACED = {"drakon_moves"}
ASKS_WHEN_ENTERED = {"destroy", "drakon_moves", "mind_orb", "rotate", "map", "shift", "start"}
PLAN = Planner("drakon_classic", ASKS_WHEN_PLACED, ASKS_WHEN_ENTERED)
GAME, legal, plan_placement, plan_move = PLAN.game, PLAN.legal, PLAN.plan_placement, PLAN.plan_move


def place_by_board(page: Page, match: Match, seat: int, tile: int, cell: str) -> int:
    """Hand tile, free cell, rotation preview if the tile has several looks. Returns rot."""
    places = [a for a in legal(match, seat) if a["type"] == "place" and a["tile"] == tile]
    click_deeper(page, page.locator(f'#my-secrets a.hand-tile.choosable[data-path="tile-{tile}"]'))
    spot = board(page).locator(f'a.spot[data-path="tile-{tile}.cell-{cell}"]')
    expect(spot).to_have_count(1)
    rotations = sorted(a["rot"] for a in places if a["at"] == cell)
    if len(set(MASKS[tiles_of(match.state)[tile][1]])) == 1:
        assert rotations == [0] and is_final(spot)
        spot.click()
        return 0
    click_deeper(page, spot)
    previews = page.locator("#rotations a.rotation")
    expect(previews).to_have_count(len(rotations))
    choice = previews.last
    path = choice.get_attribute("data-path")
    choice.click()
    return int(path.rsplit("-", 1)[1])


def answer_by_clicks(page: Page) -> str:
    """Answer a question: "skip" where offered, else the first board spot or button."""
    for _depth in range(5):
        target = None
        for selector in (
            '#choices button.choice.final[data-path="skip"]',
            "#rotations a.rotation",
            "#match-panel svg.labyrinth a.spot",
            "#my-secrets a.hand-tile.choosable",
            "#choices button.choice.final",
            "#choices a.choice:not(.back)",
        ):
            if page.locator(selector).count():
                target = page.locator(selector).first
                break
        assert target is not None, "a decision with nothing to click"
        if is_final(target):
            path = target.get_attribute("data-path")
            target.click()
            return path
        click_deeper(page, target)
    raise AssertionError("no complete answer after five clicks")


def top_line(page: Page) -> tuple[int, str]:
    item = page.locator("#match-panel ol.move-log > li").first
    return int(item.get_attribute("value")), " ".join(item.inner_text().split())


def check_page(page: Page, match: Match, seat: int, names: list[str]) -> None:
    """The first edition's page for one seat: rooms, figures, own hand and character, counts."""
    state = match.state
    svg = board(page)
    rooms = svg.locator("g.room")
    expect(rooms).to_have_count(len(state["board"]))
    drawn = dict(zip(attributes(rooms, "data-at"), attributes(rooms, "class"), strict=True))
    for at, (tile, _rot) in state["board"].items():
        assert f"room-{tiles_of(state)[tile][0]}" in drawn[at].split()
    secrets = page.locator("#my-secrets")
    expect(secrets.locator(".hand-tile")).to_have_count(len(state["hands"][seat]))
    hero = state["hero_names"][seat]
    expect(secrets).to_contain_text(str(drakon_presenter.hero_name(hero)))
    heroes = page.locator(".drakon-players li")
    for each in (0, 1):
        c = len(state["coins"][each])
        expect(heroes.nth(each)).to_contain_text(f"{c} coin{'' if c == 1 else 's'}")
    html = page.content()
    for tile in state["hands"][1 - seat]:
        assert not re.search(rf"tile-{tile}(?!\d)", html), "the other hand leaked"
    expect(page.locator("#match-panel figcaption")).to_contain_text("Goal: 5 coins.")
    expect(page.locator("#match-panel figcaption")).to_contain_text(
        f"Coins on the Start: {len(state['start_coins'])}."
    )


def test_two_players_play_drakons_first_edition(live_server, window):
    base = live_server.url
    names = ["ilka", "marek"]
    users = [make_player(name) for name in names]
    ilka, marek = window("ilka"), window("marek")
    a, b = ilka.page, marek.page
    log_in(a, base, "ilka")
    log_in(b, base, "marek")

    # The new-match page offers both editions, clearly named; the first is chosen.
    a.locator("header.topbar").get_by_role("link", name="New match").click()
    games = a.locator("#choose-game > li > a.button")
    expect(games.first).to_be_visible()
    offered = games.all_inner_texts()
    assert "Drakon (first edition)" in offered and "Drakon (fourth edition)" in offered
    a.locator('#choose-game a[href$="?game=drakon_classic"]').click()
    form = a.locator("form#create-match")
    expect(form).to_be_visible()
    form.locator('select[name="n_seats"]').select_option("2")
    form.locator('select[name="visibility"]').select_option("public")
    form.locator('select[name="opt_drakon_classic_heroes"]').select_option("True")
    form.locator('button[type="submit"]').click()
    expect(a).to_have_url(re.compile(r"/m/\d+/$"))
    pk = int(re.search(r"/m/(\d+)/$", a.url).group(1))
    match = Match.objects.get(pk=pk)
    assert (match.game_key, match.status) == ("drakon_classic", MatchStatus.OPEN)

    b.goto(f"{base}/")
    b.locator("#open-matches").get_by_role("link", name=f"#{pk} Drakon (first edition)").click()
    b.locator("#join-button").click()
    expect(b.locator("ul.messages")).to_contain_text("You joined the match.")
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert [s.user_id for s in match.seats.order_by("index")] == [u.pk for u in users]
    state = match.state
    assert state["edition"] == "1e" and [len(h) for h in state["hands"]] == [4, 4]
    assert set(state["hero_names"]) <= set(C.HEROES_1E)  # dealt at random
    windows = {0: ilka, 1: marek}
    for seat, each in windows.items():
        expect(each.page.locator("#match-panel .status")).to_contain_text(
            "In play", timeout=POLL_MS
        )
        expect(each.page.locator('#match-panel ol.move-log > li[value="0"]')).to_contain_text(
            f"is dealt the {drakon_presenter.hero_name(state['hero_names'][seat])}"
        )
        each.page.evaluate("window.__e2eMark = 'no reload'")
        check_page(each.page, match, seat, names)

    def after_post(acting: int, version: int) -> Move:
        mover, watcher = windows[acting].page, windows[1 - acting].page
        wait_for_version(mover, version, timeout=STEP_MS)
        assert mover.locator("#match-panel .error").all_inner_texts() == []
        wait_for_version(watcher, version)
        match.refresh_from_db()
        move = Move.objects.get(match=match, seq=version)
        for seat, each in windows.items():
            check_page(each.page, match, seat, names)
        return move

    placed, moved = [0, 0], [0, 0]
    for _turn in range(TURNS):
        match.refresh_from_db()
        if match.state["over"] or (min(placed) >= 2 and any(moved)):
            break
        task = match.state["pending"][-1]
        seat = task["seat"]
        page = windows[seat].page
        version = match.version + 1
        destination = plan_move(match, seat)
        if task["kind"] == "action" and placed[seat] >= 2 and not moved[seat] and destination:
            spot = board(page).locator(f'a.spot[data-path="move-{destination}"]')
            assert is_final(spot)
            spot.click()
            move = after_post(seat, version)
            assert move.action == {"type": "move", "to": destination}
            moved[seat] += 1
            _n, text = top_line(windows[1 - seat].page)
            assert f"{names[seat]} moved: " in text
        elif task["kind"] == "action":
            tile, cell = plan_placement(match, seat)
            rot = place_by_board(page, match, seat, tile, cell)
            move = after_post(seat, version)
            assert move.action == {"type": "place", "tile": tile, "at": cell, "rot": rot}
            room = str(drakon_presenter.room_name(room_of(match.state, tile), "1e"))
            _n, text = top_line(windows[1 - seat].page)
            place = drakon_presenter.place_name(cell, "start")
            assert f"{names[seat]} placed {room}: {place}." in text
            placed[seat] += 1
        else:
            answer_by_clicks(page)
            after_post(seat, version)
    assert min(placed) >= 2 and any(moved), (placed, moved)

    # The key lists the first edition's 17 kinds of chamber, and no later-edition one.
    for each in windows.values():
        key = each.page.locator("details#room-key")
        key.locator("summary").click()
        items = key.locator("ul.key > li")
        expect(items).to_have_count(len(C.ROOMS_1E))
        listed = items.locator("strong").all_inner_texts()
        assert sorted(listed) == sorted(
            str(drakon_presenter.room_name(r, "1e")) for r in C.ROOMS_1E
        )
        assert "Portal" not in listed and "Magic Harp" not in listed
        expect(items.filter(has_text="Drakon's Due")).to_contain_text("on the Start chamber")
        expect(each.page.locator("#match-panel figcaption")).to_contain_text("Heroes!")
        assert each.page.evaluate("window.__e2eMark") == "no reload"
        each.assert_clean()
        each.screenshot("e2e-drakon-classic")

"""End-to-end: two people play the opening turns of a Drakon match in real browsers.

Drives Debian's chromium (``/usr/bin/chromium``) through Playwright's sync API
against pytest-django's ``live_server``. The accounts are made through the
ORM (sign-up is covered by the Nogi test); logging in, creating the match,
joining it and every move go through the real pages. Rooms are placed with
board clicks only (a hand tile, a free cell on the SVG board, then a rotation
preview when the tile has several), heroes move by a click on a room, and the
decisions some rooms ask for are answered by clicks too. After every move the
other player's page must catch up through the panel's poll, without a reload.

The database is the oracle: it decides which element to click (the deal is
random) and what both pages must show afterwards.
"""

from __future__ import annotations

import re
from collections import Counter

import pytest
from playwright.sync_api import Locator, Page, expect

from games.catalog.drakon import presenter as drakon_presenter
from games.catalog.drakon.rules import MASKS, tiles_of
from games.models import Match, MatchStatus, Move
from tests.e2e import drakon_helpers
from tests.e2e.drakon_helpers import Planner, attributes, board, is_final, room_of
from tests.e2e.helpers import POLL_MS, log_in, make_player, new_match, version_of, wait_for_version

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

STEP_MS = 10_000  # a click and its htmx swap on the local live server
MIN_TURNS = 6  # turns played at least
MIN_PLACEMENTS = 2  # rooms placed by board clicks, per player
MAX_TURNS = 16  # a bound for the loop; the goals are normally met by turn 7
PRIVATE_MARK = "Only you see this"
HAND_SIZE = 4  # the later edition deals four tiles
ROOM_KINDS = [
    "Entrance Chamber",
    "Empty Chamber",
    "Find a Coin",
    "Lose a Coin",
    "Steal a Coin (left)",
    "Steal a Coin (right)",
    "Steal a Chamber",
    "Destroy a Chamber",
    "Rotate a Chamber",
    "Swap a Chamber",
    "Floating Chamber",
    "Magic Harp",
    "Master Key",
    "Portal",
    "Whirlwind",
    "Mind Control",
    "Drakon Moves",
    "Escape",
]
# Rooms that ask their owner something when placed, or their visitor when entered.
# They are avoided when there is a choice (the test still answers them if dealt no other).
ASKS_WHEN_PLACED = {"drakon_moves", "escape"}
ASKS_WHEN_ENTERED = {
    "destroy",
    "drakon_moves",
    "floating",
    "mind_control",
    "rotate",
    "steal_tile",
    "swap",
}
PLAN = Planner("drakon", ASKS_WHEN_PLACED, ASKS_WHEN_ENTERED)
GAME, legal, plan_placement, plan_move = PLAN.game, PLAN.legal, PLAN.plan_placement, PLAN.plan_move
ARROW_COUNT = {pattern: len(drakon_presenter.pattern_arrows(pattern, 0)) for pattern in MASKS}


# -- Reading the database ------------------------------------------------------------------------


def has_rotation_step(state: dict, tile: int) -> bool:
    """Whether placing this tile asks for a rotation (its pattern looks different turned)."""
    pattern = tiles_of(state)[tile][1]
    return len(set(MASKS[pattern])) > 1


def decision(match: Match) -> dict | None:
    """The decision on top of the task stack (None once the game is over)."""
    state = match.state
    return None if state["over"] else state["pending"][-1]


# -- The match page -----------------------------------------------------------------------------


def click_deeper(page: Page, element: Locator) -> str:
    """A step one level deeper; "Back" shows with it (see ``drakon_helpers.click_deeper``)."""
    return drakon_helpers.click_deeper(page, element, back=True)


def place_by_board(page: Page, match: Match, seat: int, tile: int, cell: str) -> tuple[str, int]:
    """Hand tile, free cell on the board, rotation preview if shown. Returns (path, rot)."""
    state = match.state
    places = [a for a in legal(match, seat) if a["type"] == "place" and a["tile"] == tile]
    svg = board(page)
    # The top level: every own tile is choosable in the hand; no free cell is offered yet.
    expect(svg.locator('a.spot[data-path^="cell-"], a.spot[data-path*=".cell-"]')).to_have_count(0)
    click_deeper(page, page.locator(f'#my-secrets a.hand-tile.choosable[data-path="tile-{tile}"]'))

    # The board now offers exactly the free cells where this tile fits, none on a room.
    spots = svg.locator(f'a.spot[data-path^="tile-{tile}.cell-"]')
    cells = sorted({a["at"] for a in places})
    expect(spots).to_have_count(len(cells))
    offered = sorted(p.split(".cell-")[1] for p in attributes(spots, "data-path"))
    assert offered == cells
    expect(svg.locator("a.spot.on-room")).to_have_count(0)
    for each in cells:
        expect(svg.locator(f'g.room[data-at="{each}"]')).to_have_count(0)
    spot = svg.locator(f'a.spot[data-path="tile-{tile}.cell-{cell}"]')

    rotations = sorted(a["rot"] for a in places if a["at"] == cell)
    if not has_rotation_step(state, tile):
        # One look whatever the turn: the cell itself completes the move.
        assert rotations == [0]
        assert is_final(spot)
        spot.click()
        return f"tile-{tile}.cell-{cell}", 0
    click_deeper(page, spot)
    previews = page.locator("#rotations a.rotation")
    expect(previews).to_have_count(len(rotations))
    paths = attributes(previews, "data-path")
    assert sorted(int(p.rsplit("-", 1)[1]) for p in paths) == rotations
    # The previews draw the tile turned: as many arrows as its pattern has, each (the
    # room's icon is a picture of its own, not an arrow).
    pattern = tiles_of(state)[tile][1]
    for preview in previews.all():
        expect(preview.locator("svg[data-option] > path")).to_have_count(ARROW_COUNT[pattern])
    # The board draws the tile on its cell once per rotation: the first one shown, and
    # the one whose button is under the pointer instead.
    ghosts = svg.locator("g.ghost")
    expect(ghosts).to_have_count(len(rotations))
    expect(ghosts.first).to_be_visible()
    choice = previews.last
    last = len(rotations) - 1
    choice.hover()
    expect(svg.locator(f'g.ghost[data-option="{last}"]')).to_be_visible()
    expect(svg.locator("g.ghost:visible")).to_have_count(1)
    path = choice.get_attribute("data-path")
    assert is_final(choice)
    choice.click()
    return path, int(path.rsplit("-", 1)[1])


def answer_by_clicks(page: Page) -> str:
    """Answer a room's question with clicks: board first, then the buttons. Returns the path.

    "Skip" is preferred where offered (Escape, Floating Chamber); otherwise the
    first rotation preview, board spot, hand tile, final button or link.
    """
    for _depth in range(5):
        skip = page.locator('#choices button.choice.final[data-path="skip"]')
        target = None
        if skip.count():
            target = skip
        else:
            for selector in (
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


def log_lines(page: Page) -> list[tuple[int, str]]:
    """(number, text) for each line of the move log, newest first."""
    items = page.locator("#match-panel ol.move-log > li")
    values = attributes(items, "value")
    texts = items.all_inner_texts()
    return [(int(v), " ".join(t.split())) for v, t in zip(values, texts, strict=True)]


def expected_line(move: Move, names: list[str]) -> list[str]:
    """Sentences the top line of the log must contain for this move, for every viewer."""
    who = names[move.seat]
    wanted = []
    for event in move.events:
        if event["type"] == "room_placed":
            room = str(drakon_presenter.ROOM_NAMES[event["room"]])
            place = drakon_presenter.place_name(event["at"])
            wanted.append(f"{who} placed {room}: {place}.")
        elif event["type"] == "tile_drawn" and event["count"]:
            wanted.append(f"{who} drew a tile.")
        elif event["type"] == "hero_moved" and event["seat"] == move.seat:
            a, b = (drakon_presenter.place_name(event[k]) for k in ("from", "to"))
            wanted.append(f"{who} moved: {a} → {b}.")
    return wanted


def check_page(page: Page, match: Match, seat: int, names: list[str]) -> None:
    """What one seated player's page must show at any moment of play (``match`` is fresh)."""
    state = match.state
    tiles = tiles_of(state)
    other = 1 - seat
    panel = page.locator("#match-panel")
    assert version_of(page) == match.version
    svg = board(page)
    expect(svg).to_be_visible()

    # The board: exactly the rooms in play, each where the database has it, of its kind.
    rooms = svg.locator("g.room")
    expect(rooms).to_have_count(len(state["board"]))
    drawn = dict(zip(attributes(rooms, "data-at"), attributes(rooms, "class"), strict=True))
    assert sorted(drawn) == sorted(state["board"])
    for at, (tile, _rot) in state["board"].items():
        assert f"room-{tiles[tile][0]}" in drawn[at].split(), (at, drawn[at])
    # Two heroes (and Drakon once she is in play).
    expect(svg.locator("g.piece")).to_have_count(2 + (state["drakon"] is not None))

    # Exactly one secrets section, holding exactly this seat's hand: names and count.
    html = page.content()
    assert html.count('id="my-secrets"') == 1
    hand = state["hands"][seat]
    secrets = page.locator("#my-secrets")
    expect(page.locator(".hand-tile")).to_have_count(len(hand))
    expect(secrets.locator(".hand-tile")).to_have_count(len(hand))
    shown = secrets.locator(".hand-tile span.small").all_inner_texts()
    assert Counter(shown) == Counter(str(drakon_presenter.room_name(tiles[t][0])) for t in hand)
    coins = sorted(state["coins"][seat])
    if coins:
        expect(secrets.locator(".my-coins")).to_have_text(" + ".join(map(str, coins)))
    else:
        expect(secrets).to_contain_text("Your coins: none yet")
    # The other hand is only a count in the heroes list; its tiles are named nowhere.
    heroes = page.locator(".drakon-players li")
    expect(heroes).to_have_count(2)
    for each in (seat, other):
        n, c = len(state["hands"][each]), len(state["coins"][each])
        expect(heroes.nth(each)).to_contain_text(names[each])
        expect(heroes.nth(each)).to_contain_text(f"{c} coin{'' if c == 1 else 's'}")
        expect(heroes.nth(each)).to_contain_text(f"{n} tile{'' if n == 1 else 's'}")
    for tile in state["hands"][other]:
        assert not re.search(rf"tile-{tile}(?!\d)", html), f"{names[other]}'s tile {tile} leaked"
    assert "secrets revealed" not in html

    # Choices only for the seat that must decide, and its own tiles only.
    task = decision(match)
    if task is not None and task["seat"] == seat:
        expect(page.locator("#choices")).to_be_visible()
        expect(panel.locator("strong.your-turn")).to_be_visible()
        if task["kind"] == "action":
            choosable = page.locator("#my-secrets a.hand-tile.choosable")
            assert sorted(attributes(choosable, "data-path")) == sorted(f"tile-{t}" for t in hand)
    else:
        expect(page.locator("#choices")).to_have_count(0)
        expect(page.locator("a.hand-tile.choosable")).to_have_count(0)
        expect(svg.locator("a.spot")).to_have_count(0)
        if task is not None:
            expect(panel.locator(".status")).to_contain_text(f"Waiting for {names[task['seat']]}")

    # The log: one line per move, newest first; private sentences only on one's own moves.
    lines = log_lines(page)
    assert [number for number, _text in lines] == list(range(match.version, -1, -1))
    moves = {m.seq: m for m in Move.objects.filter(match=match)}
    for number, text in lines:
        mine = any(e.get("private_to") == seat for e in moves[number].events)
        assert (PRIVATE_MARK in text) == mine, f"line {number} for seat {seat}: {text}"
    expect(page.locator("ol.seats li.me")).to_contain_text(names[seat])


# -- The test -----------------------------------------------------------------------------------


def test_two_players_place_rooms_and_move_in_drakon(live_server, window):
    base = live_server.url
    names = ["vesna", "oskar"]
    users = [make_player(name) for name in names]
    vesna, oskar = window("vesna"), window("oskar")
    a, b = vesna.page, oskar.page

    # 1. Both log in through the login form.
    log_in(a, base, "vesna")
    log_in(b, base, "oskar")

    # 2. Vesna creates a public two-player Drakon match, Heroes! off.
    pk = new_match(a, "drakon", n_seats="2", visibility="public", opt_drakon_heroes="False")
    match = Match.objects.get(pk=pk)
    assert (match.game_key, match.n_seats, match.status) == ("drakon", 2, MatchStatus.OPEN)
    assert match.options.get("heroes") is False
    expect(a.locator("#match-panel .status")).to_contain_text("Waiting for players")

    # 3. Oskar finds it in the lobby and joins with the button.
    b.goto(f"{base}/")
    row_link = b.locator("#open-matches").get_by_role("link", name=f"#{pk} Drakon")
    expect(row_link).to_be_visible()
    row_link.click()
    expect(b).to_have_url(re.compile(rf"/m/{pk}/$"))
    b.locator("#join-button").click()
    expect(b.locator("ul.messages")).to_contain_text("You joined the match.")
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and match.version == 0
    assert [s.user_id for s in match.seats.order_by("index")] == [u.pk for u in users]
    assert [len(hand) for hand in match.state["hands"]] == [HAND_SIZE, HAND_SIZE]
    assert list(match.state["board"]) == ["0,0"]

    # Vesna's waiting page learns of the start through the poll.
    for page in (a, b):
        expect(page.locator("#match-panel .status")).to_contain_text("In play", timeout=POLL_MS)
        # Only the opening entry (seq 0): the deal.
        expect(page.locator("#match-panel ol.move-log > li")).to_have_count(1)
        expect(page.locator('#match-panel ol.move-log > li[value="0"]')).to_contain_text("Setup")
        page.evaluate("window.__e2eMark = 'no reload'")
    windows = {0: vesna, 1: oskar}
    for seat, each in windows.items():
        check_page(each.page, match, seat, names)

    def after_post(acting: int, version: int) -> Move:
        """The acting page shows the answer to its POST; the other catches up by polling."""
        mover, watcher = windows[acting].page, windows[1 - acting].page
        wait_for_version(mover, version, timeout=STEP_MS)
        refusals = mover.locator("#match-panel .error").all_inner_texts()
        assert refusals == [], f"move {version} was refused: {refusals}"
        wait_for_version(watcher, version)
        match.refresh_from_db()
        assert match.version == version
        move = Move.objects.get(match=match, seq=version)
        assert move.seat == acting
        for page in (mover, watcher):
            number, text = log_lines(page)[0]
            assert number == version
            for sentence in expected_line(move, names):
                assert sentence in text, (sentence, text)
        for seat, each in windows.items():
            check_page(each.page, match, seat, names)
        return move

    # 4. Turns: place rooms by board clicks, move a hero by a click on a room.
    def note(line: str) -> None:
        print(line)  # pytest shows it when the test fails: the story of the game

    placed = [0, 0]
    moved = [0, 0]
    turns = 0
    while turns < MAX_TURNS and (
        turns < MIN_TURNS or min(placed) < MIN_PLACEMENTS or not any(moved)
    ):
        match.refresh_from_db()
        task = decision(match)
        assert task is not None and task["kind"] == "action", task
        seat = task["seat"]
        page = windows[seat].page
        turns += 1
        version = match.version + 1
        destination = plan_move(match, seat)
        if placed[seat] >= MIN_PLACEMENTS and not moved[seat] and destination:
            # A hero moves: the room is a spot on the board that posts at once.
            spots = board(page).locator('a.spot[data-path^="move-"]')
            expected = sorted(f"move-{a['to']}" for a in legal(match, seat) if a["type"] == "move")
            assert sorted(attributes(spots, "data-path")) == expected
            expect(board(page).locator("a.spot.on-room")).to_have_count(len(expected))
            start = match.state["heroes"][seat]
            spot = board(page).locator(f'a.spot[data-path="move-{destination}"]')
            assert is_final(spot)
            spot.click()
            move = after_post(seat, version)
            assert move.action == {"type": "move", "to": destination}
            walked = [e for e in move.events if e["type"] == "hero_moved"]
            assert walked and (walked[0]["seat"], walked[0]["from"]) == (seat, start)
            moved[seat] += 1
            note(f"{version}: {names[seat]} moves {start} -> {destination}")
        else:
            tile, cell = plan_placement(match, seat)
            rooms_before = len(match.state["board"])
            _path, rot = place_by_board(page, match, seat, tile, cell)
            move = after_post(seat, version)
            assert move.action == {"type": "place", "tile": tile, "at": cell, "rot": rot}
            assert len(match.state["board"]) == rooms_before + 1
            assert match.state["board"][cell] == [tile, rot]
            for each in windows.values():
                new_room = board(each.page).locator(f'g.room[data-at="{cell}"]')
                expect(new_room).to_have_count(1)
                expect(new_room).to_have_class(
                    re.compile(rf"\broom-{room_of(match.state, tile)}\b")
                )
            # Only the placer reads which tile was drawn; the other sees that one was.
            _n, mover_line = log_lines(page)[0]
            _n, watcher_line = log_lines(windows[1 - seat].page)[0]
            assert PRIVATE_MARK in mover_line and PRIVATE_MARK not in watcher_line
            placed[seat] += 1
            note(f"{version}: {names[seat]} places {room_of(match.state, tile)} at {cell}")
        # A room may ask a question (Drakon's chamber, a room's effect): answer it by clicks.
        for _ in range(6):
            match.refresh_from_db()
            task = decision(match)
            if task is None or task["kind"] == "action":
                break
            path = answer_by_clicks(windows[task["seat"]].page)
            note(f"{match.version + 1}: {names[task['seat']]} answers {task['kind']}: {path}")
            after_post(task["seat"], match.version + 1)
        assert not match.state["over"]

    assert turns >= MIN_TURNS
    assert min(placed) >= MIN_PLACEMENTS, placed
    assert any(moved), "no hero moved"

    # 5. The key lists the 18 kinds of chamber.
    for each in windows.values():
        key = each.page.locator("details#room-key")
        items = key.locator("ul.key > li")
        expect(items.first).to_be_hidden()
        key.locator("summary").click()
        expect(key).to_have_attribute("open", "")
        expect(items.first).to_be_visible()
        expect(items).to_have_count(18)
        listed = items.locator("strong").all_inner_texts()
        assert sorted(listed) == sorted(ROOM_KINDS)
        # Each kind with its symbol tile and what it does.
        expect(items.locator("svg rect")).to_have_count(18)
        expect(items.filter(has_text="Find a Coin")).to_contain_text("Take 1 random coin")

    # 6. Neither page was reloaded, and nothing went wrong in either browser.
    for each in windows.values():
        assert each.page.evaluate("window.__e2eMark") == "no reload"
        each.assert_clean()
        each.screenshot("e2e-drakon")

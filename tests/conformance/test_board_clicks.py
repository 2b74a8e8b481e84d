"""Every clickable element of every board is a real link or button.

A ``<div role="link" tabindex="0">`` can be focused but Enter and Space do
nothing on it; a link (``<a href>``, in HTML or SVG) or a ``<button>`` is
played from the keyboard by the browser itself. For every registered game a
few positions are drawn for the seat to move, at the top of its choices and
after each of their first clicks (deeper steps draw other targets: the cells
for a chosen card, the orientations of a placed one), and every element of
the board that carries a click (htmx, a choice's path, an ``onclick``, a
link or button role) must be an ``a`` with an ``href`` or a ``button``.
"""

from __future__ import annotations

from html.parser import HTMLParser

import pytest
from django.template import engines

from games.engine import registry
from games.lobby import services as lobby
from games.panel import build
from games.play import access, services
from tests.conformance.kit import bot_choice, keys_for

pytestmark = pytest.mark.django_db

POSITIONS = (0, 3, 8)  # moves played before each look
CLICK_ATTRIBUTES = ("hx-get", "hx-post", "data-path", "onclick")
PATHS_PER_POSITION = 40


class Clickables(HTMLParser):
    """The clickable elements of a board that are neither a link nor a button."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.wrong: list[str] = []
        self.clickable = 0

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        clicks = any(name in attributes for name in CLICK_ATTRIBUTES) or attributes.get("role") in (
            "link",
            "button",
        )
        if not clicks:
            return
        self.clickable += 1
        if tag == "button" or (tag == "a" and attributes.get("href")):
            return
        self.wrong.append(self.get_starttag_text()[:160])

    handle_startendtag = handle_starttag


def _wrong_clicks(match, user, path):
    context = build.match_panel(match, user, path=path)
    board = engines["jinja2"].env.get_template(context["board_template"]).render(context)
    parser = Clickables()
    parser.feed(board)
    return context["choices"], parser


@pytest.mark.parametrize("key", keys_for("board_clicks"))
def test_every_clickable_board_element_is_a_link_or_a_button(key, make_user):
    game = registry.get(key)
    users = [make_user(f"{key[:8]}-k{i}") for i in range(game.min_players)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=game.min_players)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    played, clickable, wrong = 0, 0, []
    for target in POSITIONS:
        while played < target:
            match.refresh_from_db()
            seat = game.current_seats(match.state)[0]
            action = bot_choice(key, match.state, seat, "random", f"k{played}")
            if game.result(game.apply(match.state, seat, action)[0]) is not None:
                break
            services.submit_action(match, match.seats.get(index=seat).user, action, match.version)
            played += 1
        match = access.get_match_for(match.pk, users[0])
        seats = game.current_seats(match.state)
        if not seats:
            break
        mover = match.seats.get(index=seats[0]).user
        match = access.get_match_for(match.pk, mover)
        paths: list[list[str]] = [[]]
        seen = 0
        while paths and seen < PATHS_PER_POSITION:
            path = paths.pop(0)
            seen += 1
            choices, parser = _wrong_clicks(match, mover, path)
            clickable += parser.clickable
            wrong += [(played, ".".join(path), element) for element in parser.wrong]
            if choices and len(path) < 2:
                paths += [
                    [*path, choice.path.split(".")[-1]]
                    for choice in choices.choices
                    if choice.action_json is None
                ]
    assert clickable, f"{key}: no clickable element found on its board"
    assert not wrong, f"{key}: clickable board elements that are no link or button: {wrong[:5]}"

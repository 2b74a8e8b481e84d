"""End-to-end: the chat's input sits with its messages, and survives the panel's poll.

The input is drawn in the chat section, right under the messages (not below
the board and the Resign button), inside the polled panel: what a player is
typing stays while the panel is swapped for news, and a sent message shows
in the list above the emptied input.
"""

from __future__ import annotations

import contextlib
import re

import pytest
from playwright.sync_api import Error as PlaywrightError
from playwright.sync_api import expect

from games.lobby import services as lobby
from games.play import chat
from tests.e2e.helpers import POLL_MS, log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_chat_input_is_under_the_messages_and_keeps_what_is_typed(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    player = window("alice")
    page = player.page
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/m/{match.pk}/")

    section = page.locator("#chat")
    lines = section.locator("ol.chat-lines")
    field = section.locator("#chat-text")
    expect(field).to_be_visible()
    # Directly under the messages, in the chat's own box, above the moves.
    lines_box, field_box = lines.bounding_box(), field.bounding_box()
    section_box = section.bounding_box()
    assert lines_box["y"] + lines_box["height"] <= field_box["y"] + 1
    assert field_box["y"] - (lines_box["y"] + lines_box["height"]) < 60
    assert field_box["y"] + field_box["height"] <= section_box["y"] + section_box["height"] + 1
    log_box = page.locator("section.log").bounding_box()
    assert field_box["y"] < log_box["y"]
    resign = page.locator("details.resign")
    if resign.count():
        # Not below Resign, as it was: the chat is in its own column.
        assert page.locator("#chat-form").evaluate("f => !f.closest('.board-col')")

    field.click()
    field.type("half a senten")
    # Bob writes meanwhile: the panel is swapped with his message.
    chat.post_message(bob, match, "your move!")
    expect(lines).to_contain_text("your move!", timeout=POLL_MS)
    expect(field).to_have_value("half a senten")
    expect(field).to_be_focused()
    field.type("ce")
    field.press("Enter")
    expect(lines).to_contain_text("half a sentence")
    expect(section.locator("#chat-text")).to_have_value("")
    expect(page.locator("#chat-form")).to_have_count(1)
    player.assert_clean()


def test_a_poll_on_its_way_while_a_line_is_sent_leaves_the_chat_form(live_server, window):
    """The panel's poll is held on its way (as a slow answer would be) while
    the player sends a chat line, and answered after the line's own answer:
    swapped into the panel that answer had already replaced, it took the chat
    form off the page (htmx moves the kept form into the new content). A line
    sent now cancels the poll on its way."""
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    player = window("alice")
    page = player.page
    log_in(page, live_server.url, "alice")
    page.goto(f"{live_server.url}/m/{match.pk}/")
    field = page.locator("#chat-text")
    expect(field).to_be_visible()

    held = []
    page.route(re.compile(r"/m/\d+/panel/"), lambda route: held.append(route))
    page.evaluate("htmx.trigger(document.querySelector('#match-panel .poller'), 'smoki:live')")
    for _ in range(100):
        if held:
            break
        page.wait_for_timeout(50)
    assert held, "the poll went out"

    field.fill("hello there")
    field.press("Enter")
    expect(page.locator("#chat ol.chat-lines")).to_contain_text("hello there")
    page.unroute(re.compile(r"/m/\d+/panel/"))
    for route in held:
        with contextlib.suppress(PlaywrightError):  # the page cancelled it
            route.continue_()
    page.wait_for_timeout(1500)  # time for a late answer to be swapped
    expect(page.locator("#chat-form")).to_have_count(1)
    expect(page.locator("#chat-text")).to_have_value("")
    expect(page.locator("#chat ol.chat-lines")).to_contain_text("hello there")

"""End-to-end: the chat's input sits with its messages, and survives the panel's poll.

The input is drawn in the chat section, right under the messages (not below
the board and the Resign button), inside the polled panel: what a player is
typing stays while the panel is swapped for news, and a sent message shows
in the list above the emptied input.
"""

from __future__ import annotations

import pytest
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

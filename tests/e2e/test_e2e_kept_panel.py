"""A move's answer leaves to the page the parts of the panel no move changes
(the title, How to play, the fair dice and the chat: ``selectors.page_keeps``);
htmx keeps the page's own (``hx-preserve``), so after the move the page reads
as the same page loaded afresh."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.play import chat
from tests.e2e.helpers import nogi_page_before_a_move, wait_for_version
from tests.e2e.test_e2e_nogi import play_one_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

KEPT = ("#match-title", "#how-to-play", "#fairness", "#chat .chat-lines")


def test_after_a_move_the_page_reads_as_the_page_loaded_afresh(live_server, window):
    def greet(match, players):
        for player in players:
            chat.post_message(player, match, f"Good luck, from {player.username}")

    match, _mover, page = nogi_page_before_a_move(
        live_server, window, ("kept-ann", "kept-ben"), plies=3, setup=greet
    )
    before = {selector: page.locator(selector).inner_text() for selector in KEPT}
    assert "Good luck, from kept-ann" in before["#chat .chat-lines"]
    page.locator("#chat-text").fill("half a thought")
    version = match.version
    with page.expect_response(lambda r: r.url.endswith("/act/")) as answer:
        play_one_move(page, pick=1)
    assert 'id="chat" hx-preserve="true"></section>' in answer.value.text()
    wait_for_version(page, version + 1)
    after = {selector: page.locator(selector).inner_text() for selector in KEPT}
    assert after == before
    expect(page.locator("#chat-text")).to_have_value("half a thought")
    shown = page.locator("#match-panel").inner_text()
    page.goto(f"{live_server.url}/m/{match.pk}/")
    wait_for_version(page, version + 1)
    assert page.locator("#match-panel").inner_text() == shown

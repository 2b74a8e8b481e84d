"""The move log a match page keeps: a move's answer adds the move's own lines
on top of the list (selectors.log_answer), and the page keeps at most the 30
lines a freshly drawn panel holds, newest first, however long it stays open."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from tests.e2e.helpers import nogi_page_before_a_move, wait_for_version
from tests.e2e.test_e2e_nogi import play_one_move

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_the_kept_log_holds_the_last_thirty_lines_after_a_move(live_server, window):
    match, _mover, page = nogi_page_before_a_move(
        live_server, window, ("tail-ann", "tail-ben"), plies=34
    )
    items = page.locator("#move-log-list > li")
    expect(items).to_have_count(30)
    version = match.version
    with page.expect_response(lambda r: r.url.endswith("/act/")) as answer:
        play_one_move(page, pick=1)
    assert 'hx-swap-oob="afterbegin"' in answer.value.text()
    wait_for_version(page, version + 1)
    expect(items).to_have_count(30)
    numbers = [int(n) for n in items.evaluate_all("items => items.map(li => li.value)")]
    assert numbers == list(range(version + 1, version - 29, -1))

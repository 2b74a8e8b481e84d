"""End-to-end: a blocked player asks for a rematch and reads a neutral refusal.

Alice blocked Bob after their match. Bob presses Rematch on the finished
match's page: the page says the same sentence any refused invitation says,
nothing about a block, no rematch is made and Alice is not invited.
"""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from accounts.models import Block
from games.lobby import services as lobby
from games.models import Invitation, Match, MatchStatus
from tests.e2e.helpers import log_in, make_player

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

NEUTRAL = "This player is not accepting invitations from you right now."


def test_a_blocked_player_asking_for_a_rematch_is_not_told_of_the_block(live_server, window):
    alice, bob = make_player("alice"), make_player("bob")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, result={"ranks": [1, 2]})
    Block.objects.create(blocker=alice, blocked=bob)

    me = window("bob")
    page = me.page
    log_in(page, live_server.url, "bob")
    page.goto(f"{live_server.url}/m/{match.pk}/")
    page.locator("#rematch-button").click()
    expect(page.locator("#match-panel")).to_contain_text(NEUTRAL)
    assert "block" not in page.locator("main").inner_text().lower()
    assert not Match.objects.filter(rematch_of=match).exists()
    assert not Invitation.objects.exists()
    # The one problem the browser saw is the refusal itself (403, and its console line).
    assert all("403" in problem and "/rematch/" in problem for problem in me.problems), me.problems

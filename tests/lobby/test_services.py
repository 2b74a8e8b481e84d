"""Matches gathered and asked for again as a service (games.lobby): the
limit on invitations sent, and rematches. What the pages show of them is in
tests/web/ (test_limits.py, test_end_of_match.py)."""

from __future__ import annotations

import pytest

from core import errors, limits
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Invitation, Match, MatchStatus

pytestmark = pytest.mark.django_db


def test_invitations_sent_are_limited_per_inviter(alice, make_user):
    invitees = [make_user(f"guest{i}") for i in range(limits.INVITE_SENT.count + 1)]
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    for guest in invitees[:-1]:
        invitations.invite_user(user=alice, match=match, username=guest.username)
    with pytest.raises(errors.TooFast):
        invitations.invite_user(user=alice, match=match, username=invitees[-1].username)
    # Inviting someone already invited sends nothing and costs nothing.
    invitations.invite_user(user=alice, match=match, username=invitees[0].username)
    assert Invitation.objects.count() == limits.INVITE_SENT.count


def test_a_drako_rematch_swaps_the_sides(alice, bob):
    """The dragon's player plays the dwarves in the rematch (fixed sides: seat 1 the dragon)."""
    match = lobby.create_match(
        user=alice, game_key="drako", n_seats=2, options={"sides": "seat1_dragon"}
    )
    lobby.join_match(user=bob, match=match)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, result={"ranks": [1, 2]})
    match.refresh_from_db()
    dragon_before = match.seats.get(index=match.state["dragon_seat"]).user
    new = lobby.rematch(user=bob, match=match)
    lobby.join_match(user=alice, match=new)
    new.refresh_from_db()
    assert new.status == MatchStatus.ACTIVE
    dragon_now = new.seats.get(index=new.state["dragon_seat"]).user
    assert dragon_now != dragon_before


def test_rematch_with_bots_starts_at_once(alice):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.fill_with_bots(user=alice, match=match)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED, result={"ranks": []})
    new = lobby.rematch(user=alice, match=Match.objects.get(pk=match.pk))
    assert new.status == MatchStatus.ACTIVE
    assert [(s.index, s.is_bot) for s in new.seats.all()] == [(0, True), (1, False), (2, True)]

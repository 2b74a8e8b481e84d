"""Blocking, wherever one player can reach another: a rematch, an
invitation, a ladder challenge, a tournament.

A rematch invites the other players again, so it obeys what an invitation
obeys: a player who blocked the one asking is not invited (the rematch is
refused), and each invitation counts against the invitation limits, so
asking, leaving and asking again cannot send a stream of emails. Every
refusal a blocked player meets says the same neutral sentence, which is
also what a player who takes invitations only from past opponents answers:
it never tells them they are blocked, nor anything false.
"""

from __future__ import annotations

import html
import re
from datetime import timedelta

import pytest
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Block, InvitationsFrom
from core import errors, limits
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Invitation, Match, MatchStatus, Notification, NotificationKind

pytestmark = pytest.mark.django_db

NEUTRAL = "This player is not accepting invitations from you right now."
NOT_OPEN = "This tournament is not open to you."


def _finished(creator, *others, key="nogi"):
    match = lobby.create_match(user=creator, game_key=key, n_seats=1 + len(others))
    for other in others:
        lobby.join_match(user=other, match=match)
    Match.objects.filter(pk=match.pk).update(
        status=MatchStatus.FINISHED, result={"ranks": list(range(1, 2 + len(others)))}
    )
    return Match.objects.get(pk=match.pk)


def _text(response) -> str:
    """The page as a person reads it: without the inline style sheet and scripts."""
    content = re.sub(r"<(style|script)\b[^>]*>.*?</\1>", "", response.content.decode(), flags=re.S)
    return html.unescape(content)


def test_a_rematch_does_not_invite_a_player_who_blocked_the_asker(alice, bob):
    match = _finished(alice, bob)
    Block.objects.create(blocker=alice, blocked=bob)
    client = Client()
    client.force_login(bob)
    response = client.post(reverse("match_rematch", args=[match.pk]), follow=True)
    text = _text(response)
    assert NEUTRAL in text and "block" not in text.lower()
    assert not Match.objects.filter(rematch_of=match).exists()
    assert not Invitation.objects.exists()
    assert not Notification.objects.filter(user=alice, kind=NotificationKind.INVITATION).exists()
    # The blocker may still ask for one: the blocked player is invited as before.
    new = lobby.rematch(user=alice, match=match)
    assert Invitation.objects.filter(match=new, invited_user=bob).exists()


def test_rematches_count_against_the_invitation_limits(alice, bob):
    """Asking, leaving (the rematch is aborted) and asking again sent an
    invitation email each time; now the invited player's limit stops it."""
    match = _finished(alice, bob)
    sent = 0
    with pytest.raises(errors.TooFast):
        for _attempt in range(limits.INVITE_RECEIVED.count + 3):
            new = lobby.rematch(user=alice, match=match)
            sent += 1
            lobby.leave_match(user=alice, match=new)
            assert Match.objects.get(pk=new.pk).status == MatchStatus.ABORTED
    assert sent == limits.INVITE_RECEIVED.count
    assert (
        Notification.objects.filter(user=bob, kind=NotificationKind.INVITATION).count()
        <= limits.INVITE_RECEIVED.count
    )
    refused = Match.objects.filter(rematch_of=match).count()
    assert refused == limits.INVITE_RECEIVED.count  # the refused one left nothing behind
    assert not mail.outbox or len(mail.outbox) <= limits.INVITE_RECEIVED.count


def test_every_invitation_refusal_says_the_same_neutral_sentence(alice, bob, carol, make_user):
    # Blocked: the same words as for a player who takes invitations only from
    # past opponents, even when the two have played together.
    _finished(alice, bob)
    Block.objects.create(blocker=alice, blocked=bob)
    match = lobby.create_match(user=bob, game_key="nogi", n_seats=3)
    with pytest.raises(errors.Forbidden) as blocked:
        invitations.invite_user(user=bob, match=match, username="alice")
    carol.profile.invitations_from = InvitationsFrom.PLAYED_WITH
    carol.profile.save()
    with pytest.raises(errors.Forbidden) as rule:
        invitations.invite_user(user=bob, match=match, username="carol")
    assert blocked.value.message == rule.value.message == NEUTRAL
    assert not Invitation.objects.exists()


def test_a_ladder_challenge_refused_by_a_block_says_the_same(alice, bob):
    from ladders import services as ladders

    for user in (alice, bob):
        ladders.join(user, "nogi")
    Block.objects.create(blocker=alice, blocked=bob)
    with pytest.raises(errors.Forbidden) as refused:
        ladders.challenge(bob, "nogi", "alice")
    assert refused.value.message == NEUTRAL
    # A challenger who blocked the player above is told their own block.
    Block.objects.all().delete()
    Block.objects.create(blocker=bob, blocked=alice)
    with pytest.raises(errors.Forbidden, match="You block this player."):
        ladders.challenge(bob, "nogi", "alice")


def _tournament(creator, **extra):
    from tournaments import services as tournaments

    fields = {
        "name": "Spring cup",
        "game_key": "nogi",
        "table_size": 2,
        "format": "swiss",
        "rounds": 1,
        "starts_at": timezone.now() + timedelta(minutes=1),
        "min_entrants": 2,
        "max_entrants": 8,
    }
    return tournaments.create_tournament(user=creator, **{**fields, **extra})


def test_a_blocked_player_cannot_enter_the_blockers_tournament(alice, bob, carol):
    from tournaments import services as tournaments

    Block.objects.create(blocker=alice, blocked=bob)
    cup = _tournament(alice)
    client = Client()
    client.force_login(bob)
    response = client.post(reverse("tournament_action", args=[cup.pk, "join"]), follow=True)
    text = _text(response)
    assert NOT_OPEN in text and "block" not in text.lower()
    assert not cup.entrants.filter(user=bob).exists()
    # Anyone else enters; and the blocker enters the blocked player's tournament.
    tournaments.join(user=carol, tournament=cup)
    theirs = _tournament(bob)
    tournaments.join(user=alice, tournament=theirs)


def test_a_round_robin_is_not_open_to_a_player_an_entrant_blocked(alice, bob, carol):
    """Everyone meets everyone in a round robin: no pairing could keep them apart."""
    from tournaments import services as tournaments

    Block.objects.create(blocker=alice, blocked=bob)
    league = _tournament(carol, format="round_robin")
    tournaments.join(user=alice, tournament=league)
    with pytest.raises(errors.Forbidden, match=NOT_OPEN):
        tournaments.join(user=bob, tournament=league)
    # In a Swiss tournament the pairings keep them apart instead.
    cup = _tournament(carol)
    tournaments.join(user=alice, tournament=cup)
    tournaments.join(user=bob, tournament=cup)


def test_a_swiss_round_keeps_a_blocked_pair_apart(make_user):
    """Four entrants of equal rating: round 1 pairs neighbours in entry order
    (the first with the second), unless the first blocked the second."""
    from tournaments import services as tournaments
    from tournaments.models import Placement

    users = [make_user(f"swiss{i}") for i in range(4)]
    cup = _tournament(users[0])
    for user in users[1:]:
        tournaments.join(user=user, tournament=cup)
    Block.objects.create(blocker=users[0], blocked=users[1])
    assert tournaments.start(cup.pk, now=timezone.now() + timedelta(minutes=2)) == "started"
    tables = {}
    for placement in Placement.objects.filter(round__tournament=cup, is_bye=False):
        tables.setdefault(placement.match_id, set()).add(placement.entrant.user_id)
    assert len(tables) == 2
    assert all({users[0].pk, users[1].pk} != table for table in tables.values())

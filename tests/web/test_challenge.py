"""A challenge from a player's page and "Play again" from a finished match's
players list: who is offered them, the new-match form with the player
invited through the invitation service (blocks, the invitee's own rule and
the limits), and refusals that change nothing."""

from __future__ import annotations

import html

import pytest
from django.test import Client
from django.urls import reverse

from accounts.models import Block, InvitationsFrom
from core import limits
from games.models import Invitation, Match, Notification, NotificationKind, Visibility
from tests.players.conftest import finish, start_match

pytestmark = pytest.mark.django_db

NEUTRAL = "This player is not accepting invitations from you right now."


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def text(response) -> str:
    return html.unescape(response.content.decode())


def challenge_form(**extra) -> dict:
    """The second step of the new-match form as a browser posts it (Drako)."""
    return {
        "game": "drako",
        "n_seats": "2",
        "visibility": "private",
        "time_per_move": str(3 * 86400),
        "time_bank": "0",
        "time_bank_increment": "0",
        "timeout_policy": "bot_strikes",
        "takeover_level": "heuristic",
        **extra,
    }


# -- The button on the player page ----------------------------------------------------------


def test_another_players_page_offers_a_challenge(alice, bob):
    page = text(client_for(alice).get(reverse("player_page", args=["bob"])))
    assert 'id="challenge-link"' in page
    assert f"{reverse('match_create')}?invite=bob" in page
    assert NEUTRAL not in page


@pytest.mark.parametrize("who", ["self", "anonymous"])
def test_no_challenge_on_ones_own_page_nor_for_a_visitor(alice, who):
    client = client_for(alice if who == "self" else None)
    page = text(client.get(reverse("player_page", args=["alice"])))
    assert "challenge-link" not in page
    assert NEUTRAL not in page


@pytest.mark.parametrize("blocker", ["them", "me"])
def test_a_block_either_way_hides_the_challenge_in_one_neutral_sentence(alice, bob, blocker):
    if blocker == "them":
        Block.objects.create(blocker=bob, blocked=alice)
    else:
        Block.objects.create(blocker=alice, blocked=bob)
    page = text(client_for(alice).get(reverse("player_page", args=["bob"])))
    assert "challenge-link" not in page
    assert NEUTRAL in page


# -- The new-match form with the player invited ------------------------------------------


def test_the_form_names_the_player_challenged_in_both_steps(alice, bob):
    client = client_for(alice)
    first = text(client.get(reverse("match_create") + "?invite=bob"))
    assert "You are challenging" in first and "/players/bob/" in first
    assert "?game=drako&invite=bob" in first
    second = client.get(reverse("match_create") + "?game=drako&invite=bob")
    assert 'name="invite" value="bob"' in text(second)
    # A challenge is private (so unrated) unless the challenger opens it to all.
    assert second.context["form"]["visibility"].value() == Visibility.PRIVATE
    assert second.context["form"]["rated"].value() is False


def test_creating_the_match_invites_the_player_through_the_invitation_service(alice, bob):
    response = client_for(alice).post(
        reverse("match_create") + "?game=drako", challenge_form(invite="bob")
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/m/{match.pk}/"
    assert match.game_key == "drako" and match.visibility == Visibility.PRIVATE
    assert list(match.seats.values_list("user__username", flat=True)) == ["alice"]
    invitation = Invitation.objects.get()
    assert (invitation.match, invitation.invited_user, invitation.invited_by) == (match, bob, alice)
    assert Notification.objects.filter(user=bob, kind=NotificationKind.INVITATION).count() == 1


def test_the_invited_player_joins_the_private_match(alice, bob):
    client_for(alice).post(reverse("match_create") + "?game=drako", challenge_form(invite="bob"))
    match = Match.objects.get()
    assert client_for(bob).post(reverse("match_join", args=[match.pk])).status_code == 302
    match.refresh_from_db()
    assert match.status == "active"


@pytest.mark.parametrize("blocker", ["them", "me"])
def test_a_block_either_way_refuses_the_challenge_and_creates_nothing(alice, bob, blocker):
    if blocker == "them":
        Block.objects.create(blocker=bob, blocked=alice)
    else:
        Block.objects.create(blocker=alice, blocked=bob)
    client = client_for(alice)
    shown = text(client.get(reverse("match_create") + "?game=drako&invite=bob"))
    assert NEUTRAL in shown and "You are challenging" not in shown
    assert 'name="invite" value="bob"' not in shown
    response = client.post(reverse("match_create") + "?game=drako", challenge_form(invite="bob"))
    assert response.status_code == 403
    assert NEUTRAL in text(response)
    assert "block" not in text(response).split("<main", 1)[1].lower()
    assert not Match.objects.exists() and not Invitation.objects.exists()


def test_the_invitees_own_rule_refuses_in_the_same_words(alice, bob):
    bob.profile.invitations_from = InvitationsFrom.PLAYED_WITH
    bob.profile.save()
    response = client_for(alice).post(
        reverse("match_create") + "?game=drako", challenge_form(invite="bob")
    )
    assert response.status_code == 403 and NEUTRAL in text(response)
    assert not Match.objects.exists()


@pytest.mark.parametrize(
    ("invite", "says"),
    [("nobody", "No player is called “nobody”."), ("alice", "You cannot challenge yourself.")],
)
def test_no_such_player_or_oneself_is_a_clear_400_that_creates_nothing(alice, invite, says):
    client = client_for(alice)
    assert says in text(client.get(reverse("match_create") + f"?invite={invite}"))
    response = client.post(reverse("match_create") + "?game=drako", challenge_form(invite=invite))
    assert response.status_code == 400 and says in text(response)
    assert not Match.objects.exists()


def test_the_invitation_limits_refuse_the_challenge_whole(alice, bob, settings):
    for _ in range(limits.INVITE_RECEIVED.count):
        limits.check(limits.INVITE_RECEIVED, bob.pk, message="")
    response = client_for(alice).post(
        reverse("match_create") + "?game=drako", challenge_form(invite="bob")
    )
    assert response.status_code == 429
    assert "bob was invited many times lately" in text(response)
    assert not Match.objects.exists() and not Invitation.objects.exists()


def test_a_deactivated_player_cannot_be_challenged(alice, bob):
    bob.is_active = False
    bob.save()
    response = client_for(alice).post(
        reverse("match_create") + "?game=drako", challenge_form(invite="bob")
    )
    assert response.status_code == 400
    assert not Match.objects.exists()


# -- "Play again" from a finished match's players list -----------------------------------


def seat_rows(response):
    return {row.username: row for row in response.context["seat_rows"] if row.username}


def test_play_again_beside_the_other_player_of_a_finished_match(alice, bob):
    match = finish(start_match([alice, bob]), [1, 2])
    response = client_for(alice).get(reverse("match_detail", args=[match.pk]))
    rows = seat_rows(response)
    assert rows["bob"].play_again == "Play again with bob"
    assert rows["alice"].play_again == ""  # not beside oneself
    page = text(response)
    assert page.count('class="inline play-again"') == 1
    assert f'action="{reverse("match_rematch", args=[match.pk])}"' in page


def test_play_again_leads_to_the_rematch(alice, bob):
    match = finish(start_match([alice, bob]), [1, 2])
    response = client_for(alice).post(reverse("match_rematch", args=[match.pk]))
    rematch = Match.objects.get(rematch_of=match)
    assert response["Location"] == f"/m/{rematch.pk}/"
    assert Invitation.objects.get(match=rematch).invited_user == bob


@pytest.mark.parametrize("who", ["spectator", "anonymous"])
def test_no_play_again_for_those_who_did_not_play(alice, bob, carol, who):
    match = finish(start_match([alice, bob]), [1, 2])
    client = client_for(carol if who == "spectator" else None)
    response = client.get(reverse("match_detail", args=[match.pk]))
    assert all(not row.play_again for row in response.context["seat_rows"])
    assert "play-again" not in text(response)


def test_no_play_again_before_the_end(alice, bob):
    match = start_match([alice, bob])
    response = client_for(alice).get(reverse("match_detail", args=[match.pk]))
    assert "play-again" not in text(response)


def test_no_play_again_beside_a_bot(alice):
    from games.lobby import services as lobby

    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.fill_with_bots(user=alice, match=match)
    finish(Match.objects.get(pk=match.pk), [1, 2, 3])
    response = client_for(alice).get(reverse("match_detail", args=[match.pk]))
    assert "play-again" not in text(response)


def test_in_a_larger_match_play_again_says_the_whole_table_is_invited(alice, bob, carol):
    match = finish(start_match([alice, bob, carol]), [1, 2, 3])
    rows = seat_rows(client_for(alice).get(reverse("match_detail", args=[match.pk])))
    assert rows["bob"].play_again == rows["carol"].play_again
    assert rows["bob"].play_again == "Play again with everyone at this table"


@pytest.mark.parametrize("blocker", ["them", "me"])
def test_a_block_either_way_says_the_neutral_sentence_instead(alice, bob, carol, blocker):
    match = finish(start_match([alice, bob, carol]), [1, 2, 3])
    if blocker == "them":
        Block.objects.create(blocker=bob, blocked=alice)
    else:
        Block.objects.create(blocker=alice, blocked=bob)
    # A block between two others is not the viewer's business.
    Block.objects.create(blocker=carol, blocked=bob)
    response = client_for(alice).get(reverse("match_detail", args=[match.pk]))
    rows = seat_rows(response)
    assert rows["bob"].play_again == "" and rows["bob"].not_accepting == NEUTRAL
    assert rows["carol"].play_again and not rows["carol"].not_accepting
    assert "block" not in text(response).split('class="seats"', 1)[1].split("</ol>")[0].lower()


def test_play_again_reads_the_blocks_in_one_query(
    alice, bob, carol, make_user, django_assert_num_queries
):
    """The finished match's page with and without "Play again": one query more."""
    dave = make_user("dave")
    match = finish(start_match([alice, bob, carol, dave]), [1, 2, 3, 4])
    url = reverse("match_detail", args=[match.pk])
    spectator, player = client_for(make_user("erin")), client_for(alice)
    spectator.get(url), player.get(url)  # warm the caches (board, preferences)
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    with CaptureQueriesContext(connection) as seen:
        spectator.get(url)
    with CaptureQueriesContext(connection) as played:
        player.get(url)
    blocks = [q["sql"] for q in played.captured_queries if '"players_block"' in q["sql"]]
    assert len(blocks) == 1, blocks
    assert len(played.captured_queries) <= len(seen.captured_queries) + 3


def test_the_challenge_costs_the_player_page_no_query(alice, bob):
    """Both blocks (the viewer's and the player's) are read with the player,
    in the page's first statement: the page's count is the one
    tests/players/test_query_counts.py bounds."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client = client_for(alice)
    url = reverse("player_page", args=["bob"])
    client.get(url)
    with CaptureQueriesContext(connection) as seen:
        assert 'id="challenge-link"' in text(client.get(url))
    blocks = [q["sql"] for q in seen.captured_queries if '"players_block"' in q["sql"]]
    assert len(blocks) == 1, blocks
    assert blocks[0].startswith('SELECT "auth_user"')
    assert blocks[0].count('"players_block"') == 2

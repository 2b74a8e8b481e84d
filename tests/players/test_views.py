"""The player pages, leaderboards, blocking and rated matches' forms as a
visitor meets them: bad input is a 404, the first or last page, or a form
error with a message, never a 500, and a refusal changes nothing."""

from __future__ import annotations

import html
import re

import pytest
from django.contrib.auth import get_user_model
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from accounts.models import Block
from core import errors
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Invitation, Match, Seat, Visibility
from players.models import PROVISIONAL_MATCHES, Rating
from players.selectors import LEADERBOARD_PAGE, MATCHES_PER_PAGE
from tests.players.conftest import finish, start_match

pytestmark = pytest.mark.django_db

NOT_OPEN = "This match is not open to you."


def client_for(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def page_text(response) -> str:
    """The page as a person reads it: without the inline style sheet and scripts."""
    content = re.sub(r"<(style|script)\b[^>]*>.*?</\1>", "", response.content.decode(), flags=re.S)
    return html.unescape(content)


# -- The player page --------------------------------------------------------------------


def test_an_unknown_or_deactivated_player_is_a_404(alice, bob):
    assert client_for().get("/players/nobody/").status_code == 404
    assert client_for(alice).get("/players/nobody/").status_code == 404
    bob.is_active = False
    bob.save()
    assert client_for(alice).get(reverse("player_page", args=["bob"])).status_code == 404


@pytest.fixture
def many_finished(alice, bob):
    """Alice with more finished matches than one page shows."""
    for i in range(MATCHES_PER_PAGE + 3):
        finish(start_match([alice, bob], "hatchlings"), [1, 2] if i % 2 else [2, 1])
    return alice


@pytest.mark.parametrize(
    ("raw", "page"),
    [("abc", 1), ("-1", 1), ("0", 1), ("1.5", 1), ("²", 1), ("", 1), ("99999999999", 1), ("2", 2)],
)
def test_a_bad_page_number_of_a_player_page_is_the_first_page(many_finished, raw, page):
    response = client_for().get(reverse("player_page", args=["alice"]), {"page": raw})
    assert response.status_code == 200
    assert response.context["data"].page == page
    shown = len(response.context["data"].finished)
    assert shown == (MATCHES_PER_PAGE if page == 1 else 3)


def test_a_page_past_the_last_is_never_an_error(many_finished):
    response = client_for().get(reverse("player_page", args=["alice"]), {"page": "999999"})
    assert response.status_code == 200
    assert not response.context["data"].has_next


def test_the_player_page_shows_ratings_changes_and_private_matches_only_to_their_players(
    alice, bob, carol, make_user
):
    finish(start_match([alice, bob]), [1, 2])
    private = start_match([alice, bob], "hatchlings", visibility=Visibility.PRIVATE)
    dave = make_user("dave")
    url = reverse("player_page", args=["alice"])
    for viewer, sees in ((None, False), (carol, False), (bob, True), (alice, True)):
        page = client_for(viewer).get(url)
        assert page.status_code == 200
        ids = [line.match.pk for line in page.context["data"].in_play]
        assert (private.pk in ids) == sees, viewer
    data = client_for(dave).get(url).context["data"]
    (standing,) = data.standings
    rating = Rating.objects.get(user=alice, game_key="nogi")
    assert (standing.display, standing.provisional, standing.rated_matches, standing.wins) == (
        rating.display,
        True,
        1,
        1,
    )
    (line,) = data.finished
    assert line.rank == 1 and line.delta == rating.display - 1000 and line.delta > 0


def test_a_hidden_page_shows_only_the_name_to_visitors_who_are_not_logged_in(alice, bob):
    finish(start_match([alice, bob]), [1, 2])
    alice.profile.page_public = False
    alice.profile.save()
    url = reverse("player_page", args=["alice"])
    hidden = client_for().get(url)
    assert hidden.status_code == 200
    assert "data" not in hidden.context and 'id="ratings"' not in hidden.content.decode()
    assert 'id="ratings"' in client_for(bob).get(url).content.decode()


# -- Leaderboards -----------------------------------------------------------------------


def test_an_unknown_game_has_no_leaderboard(alice):
    assert client_for().get("/leaderboards/chess/").status_code == 404
    assert client_for(alice).get("/leaderboards/no-such-game/").status_code == 404
    assert client_for().get(reverse("leaderboards")).status_code == 200


@pytest.fixture
def ranked(db):
    """More established players of Nogi than one page shows."""
    User = get_user_model()
    users = User.objects.bulk_create(
        [User(username=f"r{i:03d}") for i in range(LEADERBOARD_PAGE + 7)]
    )
    Rating.objects.bulk_create(
        [
            Rating(
                user=user,
                game_key="nogi",
                display=2000 - i,
                rated_matches=PROVISIONAL_MATCHES,
                last_played_at=timezone.now(),
            )
            for i, user in enumerate(users)
        ]
    )
    return users


@pytest.mark.parametrize(
    ("raw", "page"),
    [("abc", 1), ("-1", 1), ("0", 1), ("", 1), ("99999999999", 1), ("2", 2), ("999999", 2)],
)
def test_a_bad_leaderboard_page_number_is_the_first_or_last_page(ranked, raw, page):
    response = client_for().get(reverse("leaderboard", args=["nogi"]), {"page": raw})
    assert response.status_code == 200
    board = response.context["board"]
    assert (board.page, board.pages, board.total) == (page, 2, LEADERBOARD_PAGE + 7)
    assert board.rows[0].place == 1 + (page - 1) * LEADERBOARD_PAGE


# -- The new-match form and joining -----------------------------------------------------


FORM = {"game": "nogi", "n_seats": 3, "visibility": "public", "time_per_move": 86400}


@pytest.mark.parametrize(
    ("low", "high", "message"),
    [
        (1500, 1200, "The lowest rating must not be above the highest."),
        (-5, "", "greater than or equal to 0"),
        ("", 99999, "less than or equal to 4000"),
        ("x", "", "Enter a whole number."),
    ],
)
def test_a_bad_rating_range_is_a_form_error_and_creates_nothing(alice, low, high, message):
    response = client_for(alice).post(
        reverse("match_create") + "?game=nogi",
        {**FORM, "rated": "on", "min_rating": low, "max_rating": high},
    )
    assert response.status_code == 400
    assert message in page_text(response)
    assert not Match.objects.exists()


def test_the_form_creates_a_rated_match_with_a_range_and_an_unrated_one(alice):
    client = client_for(alice)
    url = reverse("match_create") + "?game=nogi"
    assert client.post(url, {**FORM, "rated": "on", "min_rating": 900, "max_rating": 1100})
    assert client.post(url, FORM).status_code == 302
    rated, unrated = Match.objects.order_by("pk")
    assert (rated.rated, rated.min_rating, rated.max_rating) == (True, 900, 1100)
    assert not unrated.rated


def test_the_service_refuses_a_range_the_wrong_way_round(alice):
    with pytest.raises(errors.ServiceError, match="lowest rating"):
        lobby.create_match(user=alice, game_key="nogi", n_seats=2, min_rating=1200, max_rating=1100)
    assert not Match.objects.exists()


def test_joining_outside_the_rating_range_is_refused_with_a_message(alice, bob, carol):
    Rating.objects.create(user=bob, game_key="nogi", display=1400)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3, max_rating=1200)
    response = client_for(bob).post(reverse("match_join", args=[match.pk]))
    assert response.status_code == 403
    assert "This match is for players rated … to 1200; your rating is 1400." in page_text(response)
    assert list(match.seats.values_list("user__username", flat=True)) == ["alice"]
    # A newcomer's 1000 is in range.
    assert client_for(carol).post(reverse("match_join", args=[match.pk])).status_code == 302
    low = lobby.create_match(user=alice, game_key="nogi", n_seats=3, min_rating=1100)
    with pytest.raises(errors.Forbidden, match="your rating is 1000"):
        lobby.join_match(user=carol, match=low)
    lobby.join_match(user=bob, match=low)


# -- Blocking ---------------------------------------------------------------------------


def block_url(username: str) -> str:
    return reverse("player_block", args=[username])


def test_block_and_unblock_work_and_are_idempotent(alice, bob):
    client = client_for(alice)
    for _ in range(2):
        response = client.post(block_url("bob"), {"do": "block"})
        assert response.status_code == 302 and response.url == reverse("player_page", args=["bob"])
        assert list(Block.objects.values_list("blocker__username", "blocked__username")) == [
            ("alice", "bob")
        ]
    page = client.get(reverse("player_page", args=["bob"]))
    assert page.context["data"].blocked_by_me
    assert "You block this player." in page_text(page)
    for _ in range(2):
        assert client.post(block_url("bob"), {"do": "unblock"}).status_code == 302
        assert not Block.objects.exists()
    assert not client.get(reverse("player_page", args=["bob"])).context["data"].blocked_by_me
    # Blocking is one-way and says nothing to the blocked player.
    client.post(block_url("bob"), {"do": "block"})
    assert (
        not client_for(bob)
        .get(reverse("player_page", args=["alice"]))
        .context["data"]
        .blocked_by_me
    )


def test_blocking_oneself_is_refused_with_a_message(alice):
    response = client_for(alice).post(block_url("alice"), {"do": "block"}, follow=True)
    assert response.status_code == 200
    assert "You cannot block yourself." in page_text(response)
    assert not Block.objects.exists()


def test_blocking_needs_a_login_a_post_and_a_real_player(alice, bob):
    response = client_for().post(block_url("bob"), {"do": "block"})
    assert response.status_code == 302 and reverse("account_login") in response.url
    assert client_for(alice).get(block_url("bob")).status_code == 405
    assert client_for(alice).post(block_url("nobody"), {"do": "block"}).status_code == 404
    assert client_for(alice).post(block_url("bob"), {"do": "bogus"}).status_code == 302
    assert not Block.objects.exclude(blocker=alice, blocked=bob).exists()


def test_a_blocked_player_cannot_invite_the_blocker_and_is_not_told_why(alice, bob, carol):
    Block.objects.create(blocker=alice, blocked=bob)
    match = lobby.create_match(user=bob, game_key="nogi", n_seats=3)
    response = client_for(bob).post(reverse("match_invite", args=[match.pk]), {"username": "alice"})
    assert response.status_code == 403
    text = page_text(response)
    # The words a player who takes invitations only from past opponents gets.
    assert "This player is not accepting invitations from you right now." in text
    assert "block" not in text.lower()
    assert not Invitation.objects.exists()
    # Anyone else is invited as before.
    assert invitations.invite_user(user=bob, match=match, username="carol")


def test_a_blocked_player_cannot_join_the_blockers_open_match(alice, bob, carol):
    Block.objects.create(blocker=alice, blocked=bob)
    public = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    response = client_for(bob).post(reverse("match_join", args=[public.pk]))
    assert response.status_code == 403
    assert NOT_OPEN in page_text(response) and "block" not in page_text(response).lower()
    # Not with the invitation link either, nor once someone else has joined.
    private = lobby.create_match(
        user=carol, game_key="nogi", n_seats=3, visibility=Visibility.PRIVATE
    )
    lobby.join_match(user=alice, match=private, token=private.invite_token)
    with pytest.raises(errors.Forbidden, match=NOT_OPEN):
        lobby.join_match(user=bob, match=private, token=private.invite_token)
    assert not Seat.objects.filter(user=bob).exists()
    # The blocker may still join the blocked player's match.
    theirs = lobby.create_match(user=bob, game_key="nogi", n_seats=3)
    lobby.join_match(user=alice, match=theirs)

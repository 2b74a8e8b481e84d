"""Player pages and names that link to them: what each viewer is shown."""

import pytest
from django.test import Client
from django.urls import reverse

from games.lobby import invitations
from games.lobby import services as lobby
from games.models import TimeoutPolicy, Visibility
from games.play import chat
from players.models import Rating
from tests.conftest import each_seat_moves

pytestmark = pytest.mark.django_db


def client_for(user=None):
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def link(user) -> str:
    return f'href="{reverse("player_page", args=[user.username])}"'


def finished_rated(winner, loser):
    match = lobby.create_match(
        user=winner, game_key="nogi", n_seats=2, timeout_policy=TimeoutPolicy.LOSS
    )
    lobby.join_match(user=loser, match=match)
    each_seat_moves(match)  # resigning before that would abort the match
    client_for(loser).post(reverse("match_resign", args=[match.pk]))
    match.refresh_from_db()
    return match


def test_names_link_to_player_pages_on_the_match_lobby_watch_and_chat(started_match, alice, bob):
    chat.post_message(bob, started_match, "hello")
    page = client_for(alice).get(reverse("match_detail", args=[started_match.pk])).content.decode()
    assert link(bob) in page and link(alice) in page
    assert f'<span class="who"><a class="player-link" {link(bob)}>' in page  # the chat line
    watch = client_for().get(reverse("watch")).content.decode()
    assert link(alice) in watch and link(bob) in watch


def test_a_bot_seat_shows_its_level_not_a_link(alice):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.fill_with_bots(user=alice, match=match, level="random")
    match.refresh_from_db()
    assert not match.rated  # a bot in a seat: unrated
    page = client_for(alice).get(reverse("match_detail", args=[match.pk])).content.decode()
    assert '<span class="bot-name">Bot 2 (random bot)</span>' in page


def test_the_player_page_shows_ratings_chart_and_finished_matches(alice, bob):
    match = finished_rated(alice, bob)
    assert match.rated and match.status == "finished"
    page = client_for().get(reverse("player_page", args=["alice"])).content.decode()
    rating = Rating.objects.get(user=alice, game_key="nogi")
    assert rating.rated_matches == 1 and rating.wins == 1 and rating.display > 1000
    assert f'<strong class="rating-number">{rating.display}</strong>' in page
    assert "provisional" in page
    assert (
        'class="chart-line"' in page and "<caption>Rating history: Nogi za pas!</caption>" in page
    )
    assert f"{rating.display} (+{rating.display - 1000})" in page
    assert link(bob) in page


def test_private_matches_appear_only_to_their_players(alice, bob, make_user):
    private = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
    )
    invitations.invite_user(user=alice, match=private, username="bob")
    lobby.join_match(user=bob, match=private)
    target = f'href="{reverse("match_detail", args=[private.pk])}"'
    url = reverse("player_page", args=["alice"])
    assert target in client_for(bob).get(url).content.decode()
    assert target not in client_for(make_user("eve")).get(url).content.decode()
    assert target not in client_for().get(url).content.decode()


@pytest.fixture
def private_rated(alice, bob):
    """A private rated match alice won against bob (a ladder challenge's,
    the one kind of private match that is rated), after a public rated one."""
    from ladders import services as ladders
    from tests.players.conftest import finish, start_match

    public = finish(start_match([alice, bob]), [1, 2])
    ladders.join(alice, "nogi")
    ladders.join(bob, "nogi")
    challenge = ladders.challenge(bob, "nogi", "alice")
    ladders.accept(alice, challenge.pk)
    private = finish(challenge.match, [1, 2])
    assert private.visibility == Visibility.PRIVATE and private.rated
    return public, private


def _history_rows(page: str) -> str:
    """The rating history's table (what a screen reader reads of the chart)."""
    start = page.index("<caption>Rating history")
    return page[start : page.index("</table>", start)]


@pytest.mark.parametrize(
    ("viewer", "sees"),
    [
        ("anonymous", False),
        ("stranger", False),
        ("staff outside the moderators", False),
        ("the opponent", True),
        ("the player", True),
        ("moderator", True),
    ],
)
def test_private_rated_matches_are_in_the_rating_history_only_for_their_players(
    alice, bob, make_user, private_rated, viewer, sees
):
    """Before, the history under the chart listed every rated match by number,
    date and rating to anyone, a private one too."""
    from django.contrib.auth.models import Group

    users = {"anonymous": None, "the opponent": bob, "the player": alice}
    if viewer in ("stranger", "staff outside the moderators", "moderator"):
        users[viewer] = make_user("eve")
    if viewer == "staff outside the moderators":
        users[viewer].is_staff = True
        users[viewer].save()
    if viewer == "moderator":
        users[viewer].is_staff = True
        users[viewer].save()
        users[viewer].groups.add(Group.objects.get(name="moderator"))
    response = client_for(users[viewer]).get(reverse("player_page", args=["alice"]))
    assert response.status_code == 200
    page = response.content.decode()
    public, private = private_rated
    rows = _history_rows(page)
    assert f"<td>#{public.pk}</td>" in rows, "a public rated match is listed"
    assert (f"<td>#{private.pk}</td>" in rows) == sees
    shown = [c.match_id for c in response.context["data"].standings[0].history]
    assert (private.pk in shown) == sees
    # The chart draws a dot for each match of the table, no more.
    assert len(response.context["data"].standings[0].chart.dots) == len(shown)
    assert page.count('class="chart-dot"') == len(shown)


def test_a_player_may_hide_their_page_from_visitors_not_logged_in(alice, bob):
    alice.profile.page_public = False
    alice.profile.save()
    url = reverse("player_page", args=["alice"])
    anonymous = client_for().get(url).content.decode()
    assert "shows their page to logged-in players only" in anonymous
    assert 'id="ratings"' not in anonymous
    assert 'id="ratings"' in client_for(bob).get(url).content.decode()


def test_an_unknown_player_is_a_404(alice):
    assert client_for(alice).get(reverse("player_page", args=["nobody"])).status_code == 404


def test_a_blocked_player_cannot_chat_where_the_blocker_sits(started_match, alice, bob):
    client_for(alice).post(reverse("player_block", args=["bob"]), {"do": "block"})
    response = client_for(bob).post(reverse("match_chat", args=[started_match.pk]), {"text": "hi"})
    assert response.status_code == 403
    assert not started_match.chat.exists()


def test_the_lobby_shows_open_matches_players_with_their_ratings(alice, bob, make_user):
    finished_rated(alice, bob)
    lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    rating = Rating.objects.get(user=alice, game_key="nogi").display
    page = client_for(make_user("dave")).get("/").content.decode()
    assert f'{link(alice)}>alice</a> <span class="rating">({rating})</span>' in page


def test_the_notifications_page_links_the_other_players(started_match, alice, bob, carol):
    page = client_for(alice).get(reverse("notifications")).content.decode()
    assert link(bob) in page and link(carol) in page


def test_the_lobby_says_which_open_matches_are_rated_and_for_whom(alice, make_user):
    lobby.create_match(user=alice, game_key="nogi", n_seats=3, min_rating=900, max_rating=1200)
    page = client_for(make_user("dave")).get("/").content.decode()
    assert "rated" in page and "(rating 900–1200)" in page

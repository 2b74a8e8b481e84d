"""Bot accounts (``accounts.bots``, ``games.play.bot_accounts``): turning a
new account into one, the BOT mark on every page that names a player, the
pools a bot account stays out of, tournaments that allow bots, the API's
``bot:play`` rule, read-only pages and the daily limit of matches between
bots. Each rule with its refusal: a clear message, nothing changed."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from accounts import bots
from accounts.models import Profile
from api import tokens
from core.errors import Forbidden, ServiceError
from games.engine import registry
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Match, Seat, Visibility
from games.play import bot_accounts
from ladders import services as ladders
from ladders.models import Entry
from matchmaking import services as quick_match
from matchmaking.models import Request
from players import selectors as player_selectors
from players.models import PROVISIONAL_MATCHES, Rating
from seasons import services as seasons
from seasons.models import Season, SeasonEntry
from tests.conftest import play_one
from tournaments import services as tournament_services
from tournaments.models import Entrant, Tournament

pytestmark = pytest.mark.django_db

MARK = '<span class="bot-mark"'


def _bot(make_user, name="botty"):
    """A new account turned into a bot account, as its owner does it."""
    user = make_user(name)
    bots.become_bot(user)
    return get_user_model().objects.select_related("profile").get(pk=user.pk)


def _text(response) -> str:
    """The page without its inline style and scripts."""
    html = response.content.decode()
    return re.sub(r"<(style|script)\b.*?</\1>", "", html, flags=re.S)


def _api(user, scopes):
    _token, raw = tokens.make_token(user, "bot", scopes)
    return Client(HTTP_AUTHORIZATION=f"Bearer {raw}")


# -- Turning into a bot account ------------------------------------------------------------


def test_a_new_account_turns_into_a_bot_account_once_confirmed(client, make_user):
    user = make_user("newbie")
    client.force_login(user)
    page = client.get(reverse("become_bot"))
    assert page.status_code == 200
    assert "cannot be undone" in _text(page) and 'id="become-bot"' in _text(page)
    # Without the box ticked: refused, nothing changed.
    refused = client.post(reverse("become_bot"), {})
    assert refused.status_code == 400
    assert "Tick the box to confirm" in _text(refused)
    assert not Profile.objects.get(user=user).is_bot_account
    done = client.post(reverse("become_bot"), {"confirm": "yes"})
    assert done.status_code == 302
    profile = Profile.objects.get(user=user)
    assert profile.is_bot_account and profile.bot_since is not None
    # Irreversible: the page now says what it is, and offers no form.
    after = client.get(reverse("become_bot"))
    assert 'id="bot-status"' in _text(after) and 'id="become-bot"' not in _text(after)
    again = client.post(reverse("become_bot"), {"confirm": "yes"})
    assert again.status_code == 400
    assert "bot account already" in _text(again)


def test_an_account_with_a_match_is_refused_and_unchanged(client, alice, bob):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    client.force_login(bob)
    page = client.get(reverse("become_bot"))
    assert 'id="bot-refusal"' in _text(page) and 'id="become-bot"' not in _text(page)
    refused = client.post(reverse("become_bot"), {"confirm": "yes"})
    assert refused.status_code == 400
    assert "has played or joined a match" in _text(refused)
    assert not Profile.objects.get(user=bob).is_bot_account
    with pytest.raises(ServiceError):
        bots.become_bot(alice)  # the creator of a match, too


def test_an_account_in_a_tournament_is_refused(alice, bob):
    tournament = tournament_services.create_tournament(
        user=alice,
        name="Cup",
        game_key="nogi",
        table_size=2,
        format="swiss",
        rounds=3,
        starts_at=timezone.now() + timedelta(hours=1),
        min_entrants=2,
        max_entrants=8,
    )
    tournament_services.join(user=bob, tournament=tournament)
    assert "entered a tournament" in bots.conversion_refusal(bob)
    with pytest.raises(ServiceError):
        bots.become_bot(bob)
    assert not Profile.objects.get(user=bob).is_bot_account


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "This cannot be undone"),
        ("pl", "Tego nie da się cofnąć"),
        ("cs", "Tohle nejde vrátit"),
    ],
)
def test_the_confirmation_page_speaks_each_language(client, make_user, language, words):
    user = make_user("newbie")
    Profile.objects.filter(user=user).update(language=language)
    client.force_login(user)
    assert words in _text(client.get(reverse("become_bot")))


def test_the_confirmation_page_reads_a_bounded_number_of_queries(client, make_user):
    user = make_user("newbie")
    client.force_login(user)
    client.get(reverse("become_bot"))
    with CaptureQueriesContext(connection) as queries:
        assert client.get(reverse("become_bot")).status_code == 200
    # session, user, profile, the six "no match, no entry" checks, the bell
    assert len(queries) <= 12, [q["sql"] for q in queries.captured_queries]


# -- The BOT mark ----------------------------------------------------------------------------


def test_the_bot_mark_on_the_lobby_the_match_and_the_player_page(client, make_user, alice):
    bot = _bot(make_user)
    # An unrated open match a bot account may join without an invitation.
    open_match = lobby.create_match(user=alice, game_key="nogi", n_seats=3, rated=False)
    lobby.join_match(user=bot, match=open_match)
    client.force_login(alice)
    lobby_page = _text(client.get(reverse("lobby")))
    assert (
        f'{MARK} title="bot account">BOT</span> <a class="player-link" href="/players/botty/">botty</a>'
        in lobby_page
    )
    match_page = _text(client.get(reverse("match_detail", args=[open_match.pk])))
    assert f'{MARK} title="bot account">BOT</span> botty</li>' in match_page
    player_page = _text(client.get(reverse("player_page", args=["botty"])))
    heading = re.search(r'<h1 id="player-name">(.*?)</h1>', player_page, re.S).group(1)
    assert MARK in heading and "botty" in heading
    # A person's name carries no mark.
    alice_page = _text(client.get(reverse("player_page", args=["alice"])))
    assert MARK not in re.search(r'<h1 id="player-name">(.*?)</h1>', alice_page, re.S).group(1)


def test_the_mark_in_text_and_on_a_started_match(client, make_user, alice):
    bot = _bot(make_user)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    invitations.invite_user(user=alice, match=match, username="botty")
    lobby.join_match(user=bot, match=match)
    match.refresh_from_db()
    assert match.status == "active" and match.rated
    seat = Seat.objects.select_related("user__profile").get(match=match, user=bot)
    from accounts.refs import ref_for_seat

    assert str(ref_for_seat(seat)) == "BOT botty"
    client.force_login(alice)
    assert MARK in _text(client.get(reverse("match_detail", args=[match.pk])))


def _rating(user, display, bot=False):
    return Rating.objects.create(
        user=user,
        game_key="nogi",
        display=display,
        rated_matches=PROVISIONAL_MATCHES,
        last_played_at=timezone.now(),
        bot=bot,
    )


def test_the_leaderboards_keep_bots_and_people_apart(client, make_user, alice, bob):
    bot = _bot(make_user)
    _rating(alice, 1500)
    _rating(bob, 1400)
    _rating(bot, 1900, bot=True)
    people = _text(client.get(reverse("leaderboard", args=["nogi"])))
    assert "/players/alice/" in people and "/players/bob/" in people
    assert "/players/botty/" not in people and MARK not in people
    machines = client.get(reverse("bot_leaderboard", args=["nogi"]))
    assert machines.status_code == 200
    text = _text(machines)
    assert "/players/botty/" in text and MARK in text and "/players/alice/" not in text
    board = player_selectors.leaderboard("nogi", 1, None, bots=True)
    assert [(row.place, row.ref.username) for row in board.rows] == [(1, "botty")]
    people_board = player_selectors.leaderboard("nogi", 1, None)
    assert [(r.place, r.ref.username) for r in people_board.rows] == [(1, "alice"), (2, "bob")]
    # The lobby's tiles and /leaderboards/ list people only.
    assert [r.ref.username for r in player_selectors.leaders(["nogi"], 3)["nogi"]] == [
        "alice",
        "bob",
    ]
    # The bot's place on its own page is its place among bots.
    page = player_selectors.player_page("botty", None)
    assert [(s.key, s.place) for s in page.standings] == [("nogi", 1)]
    # The API's boards too.
    api = _api(alice, ["match:read"])
    rows = api.get("/api/v1/leaderboards/nogi?bots=true").json()["rows"]
    assert [r["username"] for r in rows] == ["botty"]
    rows = api.get("/api/v1/leaderboards/nogi").json()["rows"]
    assert [r["username"] for r in rows] == ["alice", "bob"]


def test_the_bots_leaderboard_reads_a_bounded_number_of_queries(client, make_user):
    for i in range(3):
        _rating(_bot(make_user, f"bot{i}"), 1500 + i, bot=True)
    url = reverse("bot_leaderboard", args=["nogi"])
    client.get(url)
    with CaptureQueriesContext(connection) as few:
        client.get(url)
    for i in range(3, 12):
        _rating(_bot(make_user, f"bot{i}"), 1500 + i, bot=True)
    with CaptureQueriesContext(connection) as many:
        client.get(url)
    assert len(many) == len(few) <= 5


def test_a_rated_match_marks_the_bot_accounts_rating(make_user, alice):
    bot = _bot(make_user)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    invitations.invite_user(user=alice, match=match, username="botty")
    lobby.join_match(user=bot, match=match)
    ratings = dict(Rating.objects.filter(game_key="nogi").values_list("user__username", "bot"))
    assert ratings == {"alice": False, "botty": True}


# -- Pools for people ------------------------------------------------------------------------


def test_a_bot_account_stays_out_of_quick_match_seasons_and_ladders(make_user):
    bot = _bot(make_user)
    with pytest.raises(Forbidden, match="Quick match is for people"):
        quick_match.request(
            bot,
            game_key="nogi",
            counts=(2,),
            clock_min=timedelta(days=1),
            clock_max=timedelta(days=7),
        )
    assert not Request.objects.exists()
    season = Season(pk=1)
    with pytest.raises(Forbidden, match="Seasons are for people"):
        seasons.sign_up(user=bot, season=season)
    assert not SeasonEntry.objects.exists()
    with pytest.raises(Forbidden, match="Ladders are for people"):
        ladders.join(bot, "drako")
    assert not Entry.objects.exists()


def test_a_rated_open_match_needs_an_invitation(make_user, alice):
    bot = _bot(make_user)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    assert match.rated
    with pytest.raises(Forbidden, match="only when a player invites it"):
        lobby.join_match(user=bot, match=match)
    assert not match.seats.filter(user=bot).exists()
    invitations.invite_user(user=alice, match=match, username="botty")
    seat = lobby.join_match(user=bot, match=match)
    assert seat.index == 1
    # Private matches: by invitation, as for anyone.
    private = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
    )
    invitations.invite_user(user=alice, match=private, username="botty")
    lobby.join_match(user=bot, match=private)
    private.refresh_from_db()
    assert private.status == "active"


def test_tournaments_take_bots_only_where_the_organiser_allows(make_user, alice):
    bot = _bot(make_user)

    def cup(**kw):
        return tournament_services.create_tournament(
            user=alice,
            name="Cup",
            game_key="nogi",
            table_size=2,
            format="swiss",
            rounds=3,
            starts_at=timezone.now() + timedelta(hours=1),
            min_entrants=2,
            max_entrants=8,
            **kw,
        )

    closed = cup()
    assert not closed.bots_allowed
    with pytest.raises(Forbidden, match="does not allow bot accounts"):
        tournament_services.join(user=bot, tournament=closed)
    assert not Entrant.objects.filter(user=bot).exists()
    open_to_bots = cup(bots_allowed=True)
    tournament_services.join(user=bot, tournament=open_to_bots)
    assert Entrant.objects.filter(user=bot, tournament=open_to_bots).exists()


def test_the_create_form_sets_bots_allowed_and_the_page_says_so(client, alice):
    from tests.tournaments.test_views import _form

    client.force_login(alice)
    form_page = _text(client.get(reverse("tournament_create") + "?game=nogi"))
    assert 'name="bots_allowed"' in form_page
    client.post(reverse("tournament_create") + "?game=nogi", _form(name="Off"))
    client.post(reverse("tournament_create") + "?game=nogi", _form(name="On", bots_allowed="on"))
    flags = dict(Tournament.objects.values_list("name", "bots_allowed"))
    assert flags == {"Off": False, "On": True}
    on = Tournament.objects.get(name="On")
    assert 'id="bots-allowed"' in _text(client.get(reverse("tournament_detail", args=[on.pk])))


# -- The API: bot:play ------------------------------------------------------------------------


def test_a_person_cannot_use_bot_play(alice, bob):
    with pytest.raises(ServiceError, match="Only a bot account can use bot:play"):
        tokens.make_token(alice, "bot", ["bot:play"])
    assert "bot:play" not in dict(tokens.scopes_for(alice))
    # A token made before (written straight) acts for nobody.
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    raw = "smk_" + "x" * 43
    alice.api_tokens.create(
        name="old", prefix=raw[:10], digest=tokens.digest(raw), scopes=["bot:play"]
    )
    client = Client(HTTP_AUTHORIZATION=f"Bearer {raw}")
    answer = client.get(f"/api/v1/matches/{match.pk}")
    assert answer.status_code == 403 and answer.json()["error"]["code"] == "missing_scope"


def test_a_bot_account_acts_only_with_bot_play(make_user, alice):
    bot = _bot(make_user)
    assert "bot:play" in dict(tokens.scopes_for(bot))
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    invitations.invite_user(user=alice, match=match, username="botty")
    without = _api(bot, ["match:read", "match:play", "challenge:read", "challenge:write"])
    assert without.get("/api/v1/me").json()["bot"] is True
    # Reading needs no bot:play; acting does, even with the endpoint's own scope.
    assert without.get("/api/v1/challenges").status_code == 200
    refused = without.post(f"/api/v1/matches/{match.pk}/join")
    assert refused.status_code == 403
    assert refused.json()["error"]["scope"] == "bot:play"
    assert not match.seats.filter(user=bot).exists()
    player = _api(bot, ["bot:play", "challenge:write"])
    assert player.post(f"/api/v1/matches/{match.pk}/join").status_code == 200
    match.refresh_from_db()
    assert match.status == "active"
    data = without.get(f"/api/v1/matches/{match.pk}").json()
    if not data["legal_actions"]:  # alice moves first: her move, then the bot's turn
        play_one(match, registry.get("nogi"))
        data = without.get(f"/api/v1/matches/{match.pk}").json()
    body = {"action_id": data["legal_actions"][0]["id"], "version": data["version"]}
    refused = without.post(
        f"/api/v1/matches/{match.pk}/actions", body, content_type="application/json"
    )
    assert refused.status_code == 403 and refused.json()["error"]["scope"] == "bot:play"
    assert Match.objects.get(pk=match.pk).version == data["version"]
    played = player.post(
        f"/api/v1/matches/{match.pk}/actions", body, content_type="application/json"
    )
    assert played.status_code == 200, played.content
    assert Match.objects.get(pk=match.pk).version > data["version"]


# -- Read-only pages -------------------------------------------------------------------------


def test_a_bot_accounts_site_forms_are_refused(client, make_user, alice):
    bot = _bot(make_user)
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3, rated=False)
    client.force_login(bot)
    refused = client.post(reverse("match_join", args=[match.pk]))
    assert refused.status_code == 403
    assert "plays through the API only" in _text(refused)
    assert not match.seats.filter(user=bot).exists()
    # Its pages read as anyone's, and its profile (its tokens) stays its own.
    assert client.get(reverse("match_detail", args=[match.pk])).status_code == 200
    made = client.post(
        reverse("api_token_create"), {"name": "engine", "scopes": ["bot:play", "match:read"]}
    )
    assert made.status_code == 200 and bot.api_tokens.count() == 1


# -- Matches between bots, a day --------------------------------------------------------------


def test_matches_between_bots_are_limited_per_day(settings, make_user, alice):
    settings.SMOKI = {**settings.SMOKI, "BOT_MATCHES_PER_DAY": 1}
    one, two = _bot(make_user, "one"), _bot(make_user, "two")
    first = lobby.create_match(user=one, game_key="nogi", n_seats=2, rated=False)
    lobby.join_match(user=two, match=first)
    assert bot_accounts.bot_matches_today(two.pk) == 1
    second = lobby.create_match(user=one, game_key="nogi", n_seats=2, rated=False)
    with pytest.raises(Forbidden, match="1 match against bot accounts for today"):
        lobby.join_match(user=two, match=second)
    assert not second.seats.filter(user=two).exists()
    # A person at the table: not a match between bots, never counted.
    mixed = lobby.create_match(user=alice, game_key="nogi", n_seats=3, rated=False)
    lobby.join_match(user=one, match=mixed)
    lobby.join_match(user=two, match=mixed)
    assert bot_accounts.bot_matches_today(two.pk) == 1
    # A day later the count starts again.
    Match.objects.filter(pk=first.pk).update(created_at=timezone.now() - timedelta(days=2))
    lobby.join_match(user=two, match=second)
    assert second.seats.filter(user=two).exists()


def test_a_bot_account_cannot_move_by_the_emails_links(make_user, alice):
    """The "your turn" email's links play without a session: refused to a
    bot account as its forms are, and the match is unchanged."""
    from tests.correspondence.test_email_moves import _link_for, path_of

    bot = _bot(make_user)
    match = lobby.create_match(
        user=bot, game_key="nogi", n_seats=2, options={"first_player": "host"}, rated=False
    )
    lobby.join_match(user=alice, match=match)
    match.refresh_from_db()
    action = registry.get("nogi").legal_actions(match.state, 0)[0]
    url = path_of(_link_for(match, bot, action))
    refused = Client().post(url)
    assert refused.status_code == 403
    assert "plays through the API only" in _text(refused)
    assert Match.objects.get(pk=match.pk).version == match.version


def test_the_mark_in_a_matchs_chat_and_on_an_invitation(client, make_user, alice):
    """A bot account chats and invites through the API: the chat line and
    the lobby's invitation name it with its mark too."""
    from games.play import chat

    bot = _bot(make_user)
    match = lobby.create_match(user=bot, game_key="nogi", n_seats=2, rated=False)
    invitations.invite_user(user=bot, match=match, username="alice")
    client.force_login(alice)
    invitation = re.search(
        rf'<li id="invitation-{match.pk}">(.*?)</li>', _text(client.get(reverse("lobby"))), re.S
    ).group(1)
    assert MARK in invitation and "/players/botty/" in invitation
    lobby.join_match(user=alice, match=match)
    chat.post_message(bot, match, "good luck")
    page = _text(client.get(reverse("match_detail", args=[match.pk])))
    line = re.search(r'<li data-message="\d+"><span class="who">(.*?)</a>', page, re.S)
    assert MARK in line.group(1) and "/players/botty/" in line.group(1)

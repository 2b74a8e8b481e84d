"""The web layer: pages, htmx fragments, and every refusal a clear 4xx that changes nothing."""

import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Move, Visibility
from games.play import access
from tests.conftest import user_to_move

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user, **kwargs):
    client = Client(**kwargs)
    client.force_login(user)
    return client


def snapshot(match):
    match.refresh_from_db()
    return (match.version, match.state, match.status, Move.objects.filter(match=match).count())


def act_url(match):
    return reverse("match_act", args=[match.pk])


def legal_post(match, nogi, version=None):
    seat = nogi.current_seats(match.state)[0]
    action = nogi.legal_actions(match.state, seat)[0]
    return {"action": json.dumps(action), "version": match.version if version is None else version}


def test_lobby_for_anonymous_and_players(started_match, alice, make_user):
    open_match = lobby.create_match(user=make_user("dave"), game_key="nogi", n_seats=3)
    response = Client().get("/")
    assert response.status_code == 200
    assert f"#{open_match.pk}" in response.content.decode()
    page = client_for(alice).get("/").content.decode()
    assert "my-matches" in page and f"#{started_match.pk}" in page


def test_my_matches_lists_my_turn_first(alice, bob, carol, nogi):
    matches = []
    for _ in range(3):
        match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
        lobby.join_match(user=bob, match=match)
        matches.append(match)
    page = client_for(alice).get("/").content.decode()
    order = [int(pk) for pk in re.findall(r'<a href="/m/(\d+)/">#', page)]
    mine = [m for m in matches if user_to_move(Match.objects.get(pk=m.pk), nogi) == alice]
    assert order[: len(mine)] == sorted((m.pk for m in mine), key=order.index)
    assert set(order[: len(mine)]) == {m.pk for m in mine}


def test_create_match_through_the_form(alice):
    response = client_for(alice).post(
        reverse("match_create"),
        {
            "game": "nogi",
            "n_seats": 4,
            "visibility": "private",
            "time_per_move": 86400,
            "opt_nogi_first_player": "host",
        },
    )
    match = Match.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/m/{match.pk}/"
    assert (match.n_seats, match.visibility, match.options) == (
        4,
        Visibility.PRIVATE,
        {"first_player": "host"},
    )
    assert match.time_per_move.total_seconds() == 86400


def test_create_match_form_refuses_forged_fields(alice):
    client = client_for(alice)
    for data in [
        {"game": "chess", "n_seats": 2, "visibility": "public", "time_per_move": 86400},
        {"game": "nogi", "n_seats": 99, "visibility": "public", "time_per_move": 86400},
        {"game": "nogi", "n_seats": 3, "visibility": "secret", "time_per_move": 86400},
        {"game": "nogi", "n_seats": 3, "visibility": "public", "time_per_move": 1},
        {
            "game": "nogi",
            "n_seats": 3,
            "visibility": "public",
            "time_per_move": 86400,
            "opt_nogi_first_player": "me",
        },
    ]:
        assert client.post(reverse("match_create"), data).status_code == 400
    assert Match.objects.count() == 0


def test_private_match_is_hidden_from_strangers(alice, bob, make_user):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
    )
    url = reverse("match_detail", args=[match.pk])
    # A logged-out visitor is asked to log in and comes back, exactly as for
    # a match that does not exist: nothing says the private match is there.
    anonymous = Client().get(url)
    assert anonymous.status_code == 302
    assert anonymous["Location"] == f"/accounts/login/?next=/m/{match.pk}/"
    missing = Client().get(reverse("match_detail", args=[match.pk + 1000]))
    assert missing["Location"] == f"/accounts/login/?next=/m/{match.pk + 1000}/"
    assert client_for(bob).get(url).status_code == 404
    assert client_for(bob).get(url + f"?token={match.invite_token}").status_code == 200
    link = Client().get(reverse("invitation_link", args=[match.invite_token]))
    assert link.status_code == 302 and match.invite_token in link["Location"]
    assert Client().get(reverse("invitation_link", args=["nope"])).status_code == 404
    response = client_for(bob).post(
        reverse("match_join", args=[match.pk]), {"token": match.invite_token}
    )
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE


def test_join_leave_invite_and_bots_through_views(alice, bob, carol, make_user):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=4)
    assert client_for(bob).post(reverse("match_join", args=[match.pk])).status_code == 302
    response = client_for(alice).post(
        reverse("match_invite", args=[match.pk]), {"username": "carol"}
    )
    assert response.status_code == 302 and match.invitations.get().invited_user == carol
    assert (
        client_for(alice)
        .post(reverse("match_invite", args=[match.pk]), {"username": "ghost"})
        .status_code
        == 400
    )
    assert client_for(bob).post(reverse("match_leave", args=[match.pk])).status_code == 302
    assert client_for(bob).post(reverse("match_fill_bots", args=[match.pk])).status_code == 403
    assert client_for(alice).post(reverse("match_fill_bots", args=[match.pk])).status_code == 302
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and match.seats.filter(is_bot=True).count() == 3


def test_a_move_through_htmx_and_plain_post(started_match, nogi):
    match = started_match
    mover = user_to_move(match, nogi)
    response = client_for(mover).post(act_url(match), legal_post(match, nogi), **HTMX)
    assert response.status_code == 200
    assert 'id="match-panel"' in response.content.decode()
    assert "<html" not in response.content.decode()
    match.refresh_from_db()
    assert match.version == 1
    mover = user_to_move(match, nogi)
    response = client_for(mover).post(act_url(match), legal_post(match, nogi))
    assert response.status_code == 302 and response["Location"] == f"/m/{match.pk}/"
    match.refresh_from_db()
    assert match.version == 2


def test_refusals_are_clear_4xx_and_change_nothing(started_match, nogi, make_user):
    match = started_match
    mover = user_to_move(match, nogi)
    seat = nogi.current_seats(match.state)[0]
    other = match.seats.exclude(index=seat).first().user
    good = legal_post(match, nogi)
    before = snapshot(match)
    cases = [
        (Client(), good, 403, "log in"),
        (client_for(other), good, 403, "not your turn"),
        (client_for(make_user("eve")), good, 403, "no seat"),
        (client_for(mover), {**good, "version": 5}, 409, "moved on"),
        (client_for(mover), {**good, "version": "x"}, 400, "whole number"),
        (client_for(mover), {**good, "action": "{not json"}, 400, "could not be read"),
        (client_for(mover), {**good, "action": "[1, 2]"}, 400, "could not be read"),
        (client_for(mover), {"version": 0}, 400, "required"),
        (client_for(mover), {**good, "action": '{"type": "use_die", "die": "white"}'}, 400, ""),
        (client_for(mover), {**good, "action": "x" * 5000}, 400, "at most"),
    ]
    for client, data, status, text in cases:
        for extra in ({}, HTMX):
            response = client.post(act_url(match), data, **extra)
            assert response.status_code == status, (data, extra, response.status_code)
            body = response.content.decode()
            assert text.lower() in body.lower()
            assert 'class="error"' in body
            assert snapshot(match) == before


def test_missing_csrf_is_refused(started_match, nogi):
    match = started_match
    mover = user_to_move(match, nogi)
    before = snapshot(match)
    client = client_for(mover, enforce_csrf_checks=True)
    response = client.post(act_url(match), legal_post(match, nogi))
    assert response.status_code == 403
    assert snapshot(match) == before


def test_get_on_the_action_url_is_refused(started_match, nogi):
    mover = user_to_move(started_match, nogi)
    assert client_for(mover).get(act_url(started_match)).status_code == 405


def test_finished_match_refuses_moves(started_match, nogi):
    match = started_match
    mover = user_to_move(match, nogi)
    data = legal_post(match, nogi)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    before = snapshot(match)
    response = client_for(mover).post(act_url(match), data, **HTMX)
    assert response.status_code == 409 and "over" in response.content.decode()
    assert snapshot(match) == before


def test_poll_answers_204_until_something_changes(started_match, nogi, alice):
    match = started_match
    url = reverse("match_panel", args=[match.pk])
    client = client_for(alice)
    stamp = match.stamp
    assert client.get(url, {"since": stamp}).status_code == 204
    mover = user_to_move(match, nogi)
    client_for(mover).post(act_url(match), legal_post(match, nogi))
    response = client.get(url, {"since": stamp})
    assert response.status_code == 200
    assert 'data-version="1"' in response.content.decode()
    match.refresh_from_db()
    assert client.get(url, {"since": match.stamp}).status_code == 204
    assert client.get(url, {"since": "garbage"}).status_code == 200


def test_the_poll_s_stamp_is_the_match_s_own_in_every_column(started_match, alice):
    """The poll reads the stamp's columns with its own SQL; it must come out as the
    match's stamp whatever they hold: a deadline, an undo request and its
    agreements, a private match asked about by a seated player."""
    match = started_match
    url = reverse("match_panel", args=[match.pk])
    client = client_for(alice)
    Match.objects.filter(pk=match.pk).update(
        undo_request={"seat": 0, "version": match.version, "agreed": [1]},
        visibility=Visibility.PRIVATE,
    )
    match.refresh_from_db()
    assert match.deadline is not None and match.undo_request
    assert client.get(url, {"since": match.stamp}).status_code == 204
    assert access.stamp_for(match.pk, alice, None, str(alice.pk)) == match.stamp
    assert access.stamp_for(match.pk, alice, None, "not a number") == match.stamp
    Match.objects.filter(pk=match.pk).update(undo_request=None, deadline=None)
    assert client.get(url, {"since": match.stamp}).status_code == 200
    match.refresh_from_db()
    assert client.get(url, {"since": match.stamp}).status_code == 204
    assert access.stamp_for(2**63, alice) is None


def test_the_poll_notices_a_chat_message_and_a_join_without_a_new_version(
    started_match, alice, bob, carol
):
    """The stamp carries ``updated_at``: open pages see chat and new players."""
    match = started_match
    url = reverse("match_panel", args=[match.pk])
    since = {"since": match.stamp}
    assert client_for(alice).get(url, since).status_code == 204
    response = client_for(bob).post(reverse("match_chat", args=[match.pk]), {"text": "hello"})
    assert response.status_code == 302
    answer = client_for(alice).get(url, since)
    assert answer.status_code == 200 and "hello" in answer.content.decode()
    match.refresh_from_db()
    assert match.version == int(since["since"].split("-")[0])

    waiting = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    since = {"since": waiting.stamp}
    waiting_url = reverse("match_panel", args=[waiting.pk])
    assert client_for(alice).get(waiting_url, since).status_code == 204
    lobby.join_match(user=carol, match=waiting)
    answer = client_for(alice).get(waiting_url, since)
    assert answer.status_code == 200 and "carol" in answer.content.decode()


def test_the_204_poll_reads_only_the_stamp_and_still_guards_private_matches(
    alice, bob, carol, make_user
):
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
    )
    invitations.invite_user(user=alice, match=match, username="bob")
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    url = reverse("match_panel", args=[match.pk])
    from django.contrib.auth.models import Group

    staff = get_user_model().objects.create_user("staffer", is_staff=True)
    staff.groups.add(Group.objects.get(name="moderator"))
    since = {"since": match.stamp}
    for who in (alice, bob, staff):
        client = client_for(who)
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url, since).status_code == 204, who
        sqls = " ".join(q["sql"] for q in ctx.captured_queries)
        assert '"games_match"."state"' not in sqls and "accounts_profile" not in sqls, sqls
        # The user, then the match's stamp with the seat and the invitation of
        # the user the session names; a moderator's group only for a moderator
        # (the session itself comes from the cache).
        assert len(ctx) == (3 if who == staff else 2), sqls
    invited = make_user("dora")
    invitations.invite_user(user=alice, match=make_match_for_invites(alice), username="dora")
    # Knowing the stamp is not enough: an outsider, a stranger with a wrong token
    # and an anonymous visitor get what they got before, a 404 that shows nothing.
    for client, params in [
        (client_for(carol), since),
        (client_for(invited), since),
        (Client(), {**since, "token": "wrong"}),
        (Client(), since),
        # The match has started: its invite link grants nothing more.
        (Client(), {**since, "token": match.invite_token}),
        (client_for(make_user("erin")), since),
    ]:
        assert client.get(url, params).status_code == 404
    staff.groups.clear()
    assert client_for(staff).get(url, since).status_code == 404, "staff alone is not a moderator"


def make_match_for_invites(user):
    """Another open match: an invitation there opens nothing here."""
    return lobby.create_match(user=user, game_key="nogi", n_seats=3, visibility=Visibility.PRIVATE)


def test_choices_build_an_action_in_clicks(started_match, nogi):
    match = started_match
    mover = user_to_move(match, nogi)
    seat = nogi.current_seats(match.state)[0]
    client = client_for(mover)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    top = set(re.findall(r'data-path="([^".]+)"', page))
    rolled = {f"die-{die}" for die, status in match.state["dice"].items() if status == "pool"}
    assert top == rolled
    legal = nogi.legal_actions(match.state, seat)
    white = [a for a in legal if a["die"] == "white"]
    panel = client.get(reverse("match_panel", args=[match.pk]), {"path": "die-white"}).content
    deeper = set(re.findall(r'data-path="die-white\.([^"]+)"', panel.decode()))
    assert deeper and len(deeper) <= len(white)
    forged = client.get(reverse("match_panel", args=[match.pk]), {"path": "die-red.k"}).content
    assert set(re.findall(r'data-path="([^".]+)"', forged.decode())) == rolled


def test_spectator_sees_the_board_but_no_choices(started_match):
    page = Client().get(reverse("match_detail", args=[started_match.pk])).content.decode()
    assert "<svg" in page and 'id="choices"' not in page and 'id="my-secrets"' not in page
    assert started_match.seed_hash in page and started_match.seed not in page


def test_finished_match_reveals_seed_and_verifies(started_match, nogi):
    match = started_match
    from tests.conftest import play_one

    for i in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        play_one(match, nogi, choose=i * 3)
    page = Client().get(reverse("match_detail", args=[match.pk])).content.decode()
    assert match.seed in page
    verify = Client().get(reverse("match_verify", args=[match.pk])).content.decode()
    assert "Verified: this match was played exactly as logged." in verify
    log = Client().get(reverse("match_log", args=[match.pk]))
    # Every move, and the opening entry (seq 0) with the first roll.
    text = log.content.decode()
    assert log.status_code == 200 and text.count("<li value=") == match.version + 1
    assert '<li value="0"><span class="who">Setup</span>' in text


def test_public_log_json_reveals_the_seed_only_at_the_end(started_match, nogi):
    from tests.conftest import play_one

    match = started_match
    play_one(match, nogi)
    data = Client().get(reverse("match_log_json", args=[match.pk])).json()
    assert data["seed"] is None and data["seed_sha256"] == match.seed_hash
    assert [m["seq"] for m in data["moves"]] == [0, 1]
    assert data["moves"][0]["action"] == {"type": "_opening"}
    assert all("events" not in move for move in data["moves"])
    for i in range(500):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        play_one(match, nogi, choose=i)
    data = Client().get(reverse("match_log_json", args=[match.pk])).json()
    assert data["seed"] == match.seed
    from games.engine.replay import replay

    rebuilt = replay(
        nogi,
        data["n_seats"],
        data["options"],
        data["seed"],
        [(m["seat"], m["action"]) for m in data["moves"]],
    )
    assert rebuilt == match.state


def test_healthz():
    assert Client().get("/healthz").content == b"ok"

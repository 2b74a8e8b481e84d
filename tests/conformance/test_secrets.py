"""Nothing a seat must not know reaches it: pages, fragments, polls, logs, emails, pushes,
webhook bodies (a player's are the push's words; a tournament's feed is captured too).

Differential, for every registered game: a match is played a few moves
through the service layer; then, for each seat and for a spectator, every
page and fragment they can load (the players' pages and the game's
leaderboard among them), the poll answer, the public JSON log, the
full log, the verify page, the notifications page, every email built for
them (with its move links) and the SVG source of the email's board picture
are captured, the game's ``perturb_secrets`` changes everything that
viewer must not know, and everything is captured again. It must be
byte-identical. The same holds for the tournament and ladder pages (the
lists, a tournament's page, a ladder's page with its challenges) while a
tournament match and a ladder challenge's match are in play. A sanity check shows the same kind of change does reach the
seat it belongs to, so the comparison can fail.
"""

import html
import json
import re

import pytest
import time_machine
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from games.correspondence import board_picture, compose, push
from games.engine import registry
from games.engine.rng import Rng
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Notification, Seat
from games.play import services
from tests.conformance.kit import GAME_KEYS, bot_choice, keys_for

pytestmark = pytest.mark.django_db

MOVES = 10
NOISE = [
    re.compile(r'name="csrfmiddlewaretoken" value="[^"]+"'),
    re.compile(r"[\w-]+:[\w-]{4,8}:[\w-]{20,}"),  # unsubscribe links, signed with a timestamp
    re.compile(r'"X-CSRFToken": "[^"]+"'),
    re.compile(r'nonce="[^"]+"'),
    # "Since your last visit": a first and a second look differ by design (the
    # first is a visit); test_replay_secrets.py diffs it on its own.
    re.compile(r'<section class="catch-up".*?</section>', re.S),
    # "online now" beside a player: whether they were seen depends on whose
    # requests came first, not on any secret (accounts.presence).
    re.compile(r'<span class="presence[^"]*"[^>]*>[^<]*</span>'),
]
CHOICE_PATH = re.compile(r'data-path="([^"]+)"')


def _normalise(text: str) -> str:
    for pattern in NOISE:
        text = pattern.sub("", text)
    return text


def _start(key, make_user):
    game = registry.get(key)
    n = min(max(3, game.min_players), game.max_players)
    users = [make_user(f"{key[:8]}-s{i}") for i in range(n)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=n)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return game, match, users


def _play(game, match, moves):
    """Play up to ``moves`` heuristic-bot moves for the humans, stopping before the end."""
    for step in range(moves):
        match.refresh_from_db()
        (seat_index, *_rest) = game.current_seats(match.state)
        action = bot_choice(match.game_key, match.state, seat_index, "heuristic", f"s{step}")
        new_state, _events = game.apply(match.state, seat_index, action)
        if game.result(new_state) is not None:
            break
        user = match.seats.get(index=seat_index).user
        services.submit_action(match, user, action, match.version)
    match.refresh_from_db()


def _capture(client, match, user) -> dict[str, str]:
    """Everything this viewer can be served about the match, as text."""
    if user is not None:  # opening the notifications page reads them: start from all read
        Notification.objects.filter(user=user, read_at__isnull=True).update(read_at=timezone.now())
    detail_url = reverse("match_detail", args=[match.pk])
    if user is not None:
        # Each look is a first look: the board highlights what changed since the
        # seat's own last move, the same both times, and is compared with the rest.
        Seat.objects.filter(match=match, user=user).update(last_seen_at=None)
    panel_url = reverse("match_panel", args=[match.pk])
    pages = {
        "page": client.get(detail_url),
        "panel": client.get(panel_url, headers={"HX-Request": "true"}),
        "poll": client.get(panel_url, {"since": match.stamp}, headers={"HX-Request": "true"}),
        "log": client.get(reverse("match_log", args=[match.pk])),
        "log.json": client.get(reverse("match_log_json", args=[match.pk])),
        "verify": client.get(reverse("match_verify", args=[match.pk])),
        "lobby": client.get("/"),
        "leaderboard": client.get(reverse("leaderboard", args=[match.game_key])),
    }
    # Every seated player's page (matches in play are listed there).
    for seat in match.seats.exclude(user=None).order_by("index"):
        pages[f"player {seat.index}"] = client.get(
            reverse("player_page", args=[seat.user.username])
        )
    captured = {name: _normalise(r.content.decode()) for name, r in pages.items()}
    # Every fragment one click down the viewer's choice tree.
    for path in sorted(set(CHOICE_PATH.findall(captured["page"])))[:6]:
        fragment = client.get(
            panel_url, {"path": html.unescape(path)}, headers={"HX-Request": "true"}
        )
        captured[f"choice {path}"] = _normalise(fragment.content.decode())
    if user is not None:
        seat = match.seats.get(user=user)
        # The email's picture is drawn from this SVG (games/board_picture.py).
        captured["email picture"] = board_picture.board_svg(match, seat.index)
        captured["notifications"] = _normalise(
            client.get(reverse("notifications")).content.decode()
        )
        for row in Notification.objects.filter(user=user, match=match).order_by("pk"):
            message = compose.build_email(row)
            body = message.body + "".join(content for content, _mime in message.alternatives)
            captured[f"email {row.pk}"] = _normalise(message.subject + body)
            # What a device of this player's would be pushed about the row.
            captured[f"push {row.pk}"] = _normalise(json.dumps(push.payload(row), sort_keys=True))
    return captured


def _viewers(match, users):
    clients = [(None, None, Client())]
    for seat in match.seats.order_by("index"):
        client = Client()
        client.force_login(seat.user)
        clients.append((seat.index, seat.user, client))
    return clients


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_no_page_fragment_log_or_email_shows_another_seats_secrets(key, make_user):
    game, match, users = _start(key, make_user)
    _play(game, match, MOVES)
    assert match.status == MatchStatus.ACTIVE and match.version > 0
    original = match.state
    rng = Rng.from_seed(f"kit-secrets-{key}")
    for seat_index, user, client in _viewers(match, users):
        # The clock stands still between the two looks: on a slow machine a
        # minute could pass between them, and "1 minute ago" is no secret.
        with time_machine.travel(timezone.now(), tick=False):
            before = _capture(client, match, user)
            perturbed = game.perturb_secrets(original, seat_index, rng)
            assert perturbed != original
            Match.objects.filter(pk=match.pk).update(state=perturbed)
            after = _capture(client, match, user)
            Match.objects.filter(pk=match.pk).update(state=original)
        for name in before:
            assert after[name] == before[name], (
                f"{key}: what {'a spectator' if seat_index is None else f'seat {seat_index}'}"
                f" is served as {name!r} changes with secrets it must not know"
            )


def _owners_see_a_change(game, match, users, rng) -> bool:
    """Whether a spectator's perturbation shows on some seat's own page."""
    original = match.state
    # A small game may reshuffle its few hidden cards into the same hands by
    # chance; a few perturbations make that vanishingly unlikely.
    for _attempt in range(4):
        perturbed = game.perturb_secrets(original, None, rng)
        for _seat_index, _user, client in _viewers(match, users)[1:]:
            before = client.get(reverse("match_detail", args=[match.pk])).content.decode()
            Match.objects.filter(pk=match.pk).update(state=perturbed)
            after = client.get(reverse("match_detail", args=[match.pk])).content.decode()
            Match.objects.filter(pk=match.pk).update(state=original)
            if _normalise(before) != _normalise(after):
                return True
    return False


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_the_perturbation_reaches_the_seat_it_belongs_to(key, make_user):
    """The spectator's perturbation changes seats' own secrets: their pages show it.

    A position may hold nothing secret that a seat sees (Drako's two sides can
    both have played out their hands), so the check is made after a few moves
    and again a few moves later; across those positions it must show.
    """
    game, match, users = _start(key, make_user)
    rng = Rng.from_seed(f"kit-owner-{key}")
    seen = False
    for _checkpoint in range(4):
        _play(game, match, MOVES // 2)
        if _owners_see_a_change(game, match, users, rng):
            seen = True
            break
    assert seen, f"{key}: no seat sees its own secrets change: the kit would prove nothing"


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_public_log_carries_only_public_actions_until_the_end(key, make_user):
    game, match, _users = _start(key, make_user)
    _play(game, match, MOVES)
    data = Client().get(reverse("match_log_json", args=[match.pk])).json()
    logged = {m.seq: m.action for m in match.moves.all()}
    for entry in data["moves"]:
        action = logged[entry["seq"]]
        expected = action if action["type"].startswith("_") else game.public_action(action)
        assert entry["action"] == expected
    assert data["seed"] is None


def _tournament_match(key, make_user):
    """A one-round Swiss tournament of the game whose single table is in play."""
    from datetime import timedelta

    from tournaments import services as tournament_services
    from tournaments.models import Placement

    game = registry.get(key)
    n = min(max(3, game.min_players), game.max_players)
    users = [make_user(f"{key[:8]}-t{i}") for i in range(n)]
    tournament = tournament_services.create_tournament(
        user=users[0],
        name=f"Secrets cup of {key}",
        game_key=key,
        table_size=n,
        format="swiss",
        rounds=1,
        starts_at=timezone.now() + timedelta(minutes=1),
        min_entrants=n,
        max_entrants=n,
    )
    for user in users[1:]:
        tournament_services.join(user=user, tournament=tournament)
    assert tournament_services.start(tournament.pk, now=timezone.now() + timedelta(minutes=2)) == (
        "started"
    )
    match = Placement.objects.get(round__tournament=tournament, seat=0).match
    return game, tournament, match, users


def _ladder_match(key, make_user):
    """A ladder challenge of the game, accepted and in play (two seats)."""
    from ladders import services as ladder_services

    users = [make_user(f"{key[:8]}-l{i}") for i in range(2)]
    for user in users:
        ladder_services.join(user, key)
    found = ladder_services.challenge(users[1], key, users[0].username)
    ladder_services.accept(users[0], found.pk)
    match = Match.objects.get(pk=found.match_id)
    assert match.status == MatchStatus.ACTIVE
    return match, users


def _capture_events(client, tournament, ladder_key, users) -> dict[str, str]:
    """The tournament and ladder pages, the lists, and everyone's player page."""
    urls = {
        "tournaments": reverse("tournament_list"),
        "tournament": reverse("tournament_detail", args=[tournament.pk]),
        "ladders": reverse("ladder_list"),
        "lobby": "/",
    }
    if ladder_key:
        urls["ladder"] = reverse("ladder_detail", args=[ladder_key])
    for user in users:
        urls[f"player {user.username}"] = reverse("player_page", args=[user.username])
    captured = {}
    for name, url in urls.items():
        response = client.get(url)
        assert response.status_code == 200, (name, response.status_code)
        captured[name] = _normalise(response.content.decode())
    # What the organiser's webhooks are posted (tournaments.feed): the round's
    # tables and results.
    from tournaments import feed

    number = max(tournament.current_round, 1)
    captured["webhook feed"] = _normalise(
        json.dumps(
            [
                feed.round_started_event(tournament, number),
                feed.round_results_event(tournament, number),
            ],
            sort_keys=True,
        )
    )
    return captured


@pytest.mark.parametrize("key", keys_for("secrets"))
def test_tournament_and_ladder_pages_show_no_secrets(key, make_user):
    """The same differential check over /tournaments/, a tournament's page,
    /ladders/, a ladder's page with its challenges, and the players' pages:
    each viewer's secrets-free pages stay byte-identical when everything they
    must not know about the tournament's match and a ladder challenge's
    match changes."""
    from ladders.rungs import ladder_game

    game, tournament, t_match, t_users = _tournament_match(key, make_user)
    _play(game, t_match, MOVES)
    assert t_match.status == MatchStatus.ACTIVE and t_match.version > 0
    matches, everyone = [t_match], list(t_users)
    ladder_key = key if ladder_game(key) is not None else None
    if ladder_key:
        l_match, l_users = _ladder_match(key, make_user)
        _play(game, l_match, MOVES // 2)
        matches.append(l_match)
        everyone += l_users
    originals = {m.pk: Match.objects.get(pk=m.pk).state for m in matches}
    seat_of = {
        (seat.match_id, seat.user_id): seat.index
        for seat in Seat.objects.filter(match__in=matches).exclude(user=None)
    }
    viewers = [(None, Client())]
    for user in everyone:
        client = Client()
        client.force_login(user)
        viewers.append((user, client))
    rng = Rng.from_seed(f"kit-events-{key}")
    for user, client in viewers:
        before = _capture_events(client, tournament, ladder_key, everyone)
        # The pages do show the matches in play (so a leak would be on them).
        assert reverse("match_detail", args=[t_match.pk]) in before["tournament"]
        if ladder_key and user in l_users:
            assert reverse("match_detail", args=[l_match.pk]) in before["ladder"]
        for match in matches:
            seat = seat_of.get((match.pk, user.pk)) if user else None
            perturbed = game.perturb_secrets(originals[match.pk], seat, rng)
            assert perturbed != originals[match.pk]
            Match.objects.filter(pk=match.pk).update(state=perturbed)
        after = _capture_events(client, tournament, ladder_key, everyone)
        for match in matches:
            Match.objects.filter(pk=match.pk).update(state=originals[match.pk])
        for name in before:
            assert after[name] == before[name], (
                f"{key}: what {user.username if user else 'a spectator'} is served as"
                f" {name!r} changes with secrets they must not know"
            )

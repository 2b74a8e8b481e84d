"""The replay (issue 26, item 2): every step of a match, as each person could see it then.

Per game, a match is played through the service layer and the state after
every log entry recorded; the replay rebuilds each of them (from the setup,
from kept positions, across an undo). Bad ``at`` values go to the nearest
step or a 404, never a 500; step N costs a bounded number of queries and at
most ``CHECKPOINT_EVERY - 1`` actions once a position is kept.
"""

from __future__ import annotations

import html
import random
import re

import pytest
from django.contrib.auth.models import Group
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import registry
from games.history import replay
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Move
from games.moderation import actions as moderation
from games.panel import presenters
from games.play import positions, services
from tests.conformance.kit import GAME_KEYS, bot_choice
from tests.conformance.test_secrets import NOISE

pytestmark = pytest.mark.django_db

MAX_MOVES = 200


def start(key, make_user, tag="r"):
    game = registry.get(key)
    n = game.min_players
    users = [make_user(f"{key[:8]}-{tag}{i}") for i in range(n)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=n)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return game, match, users


def play(game, match, moves, states=None, stop_before_end=False):
    """Up to ``moves`` moves of the heuristic bot for whoever is to move,
    recording the state at each version in ``states``."""
    if states is not None:
        states[match.version] = match.state
    for step in range(moves):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        seat = game.current_seats(match.state)[0]
        action = bot_choice(match.game_key, match.state, seat, "heuristic", f"r{step}")
        if stop_before_end and game.result(game.apply(match.state, seat, action)[0]) is not None:
            break
        services.submit_action(match, match.seats.get(index=seat).user, action, match.version)
        match.refresh_from_db()
        if states is not None:
            states[match.version] = match.state
    match.refresh_from_db()
    return match


def entries(match):
    return list(match.moves.order_by("seq").values_list("seq", "seat", "action"))


@pytest.mark.parametrize("key", GAME_KEYS)
def test_a_replay_through_every_step_equals_the_states_the_match_went_through(
    key, make_user, monkeypatch
):
    monkeypatch.setattr(replay, "CHECKPOINT_EVERY", 4)
    game, match, _users = start(key, make_user)
    states: dict[int, dict] = {}
    play(game, match, MAX_MOVES, states)
    log = entries(match)
    assert [seq for seq, _s, _a in log] == list(range(match.version + 1))
    assert set(states) == set(range(match.version + 1)), "one entry per move"
    # Cold: each step from the setup; then warm, from the positions kept.
    for warm in (False, True):
        for step in range(match.version + 1):
            if not warm:
                cache.clear()
            assert replay.state_at(match, game, log, step) == states[step], (key, step, warm)
    # Through the page too, at a few steps, as a spectator.
    for step in (0, match.version // 2, match.version):
        response = Client().get(reverse("match_replay", args=[match.pk]), {"at": step})
        assert response.status_code == 200
        assert f'data-step="{step}"' in response.content.decode()


def _walk(match, game, log, states, order, fresh):
    """``step_states`` at each step of ``order``, against the states recorded."""
    for step in order:
        if fresh:
            cache.clear()
        before, after = replay.step_states(match, game, log, step)
        assert after == states[step], (match.game_key, step, fresh)
        assert before == (states[step - 1] if step else None), (match.game_key, step, fresh)


@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_pages_steps_equal_the_states_the_match_went_through(key, make_user, monkeypatch):
    """The page reads ``step_states`` (step N-1, entry N applied once, kept
    positions read and written), a road of its own beside ``state_at``: walked
    through every step, from a fresh cache and from warm checkpoints, forward
    and in a random order, it gives the states the match went through."""
    monkeypatch.setattr(replay, "CHECKPOINT_EVERY", 4)
    monkeypatch.setattr(positions, "CHECKPOINT_EVERY", 4)
    game, match, _users = start(key, make_user, "w")
    states: dict[int, dict] = {}
    play(game, match, MAX_MOVES, states)
    log = entries(match)
    forward = list(range(match.version + 1))
    shuffled = random.Random(f"walk-{key}").sample(forward, len(forward))
    for order in (forward, shuffled):
        _walk(match, game, log, states, order, fresh=True)
        cache.clear()
        _walk(match, game, log, states, order, fresh=False)  # keeping checkpoints as it goes
        _walk(match, game, log, states, order, fresh=False)  # every checkpoint kept
    kept = [seq for seq in forward if cache.get(positions.key(match, seq)) is not None]
    assert kept == [seq for seq in forward if seq and seq % 4 == 0 and seq < match.version]


def test_a_replay_honours_a_moderators_undo(make_user, monkeypatch):
    """A moderator takes back a move that revealed nothing (a Drakon step: a
    moderator's undo refuses moves that rolled, drew or showed a secret)."""
    from tests.moderation.test_undo_reveals import revealing

    monkeypatch.setattr(replay, "CHECKPOINT_EVERY", 3)
    game, match, _users = start("drakon", make_user)
    seated = {seat.index: seat.user for seat in match.seats.all()}
    states: dict[int, dict] = {match.version: match.state}
    for step in range(400):
        match.refresh_from_db()
        seat = game.current_seats(match.state)[0]
        legal = game.legal_actions(match.state, seat)
        rng_before = match.state.get("rng")
        services.submit_action(match, seated[seat], legal[step % len(legal)], match.version)
        match.refresh_from_db()
        states[match.version] = match.state
        last = match.moves.order_by("-seq").first()
        quiet = match.state.get("rng") == rng_before and not revealing(match, last)
        if step >= 3 and quiet:
            break
    undone_at = match.version
    moderator = make_user("mod")
    moderator.is_staff = True
    moderator.save()
    moderator.groups.add(Group.objects.get(name="moderator"))
    moderation.undo_moves(moderator, match, 1, "a misclick, both players agree")
    match.refresh_from_db()
    states[match.version] = match.state
    assert match.state == states[undone_at - 1]
    play(game, match, 5, states, stop_before_end=True)
    log = entries(match)
    for step in range(match.version + 1):
        cache.clear()
        assert replay.state_at(match, game, log, step) == states[step], step
    for step in reversed(range(match.version + 1)):
        assert replay.state_at(match, game, log, step) == states[step], step
    # The page's road across the undo, cold and warm, forward and backward.
    steps = list(range(match.version + 1))
    _walk(match, game, log, states, steps, fresh=True)
    _walk(match, game, log, states, steps, fresh=False)
    _walk(match, game, log, states, steps[::-1], fresh=False)


@pytest.fixture
def long_match(make_user):
    game, match, users = start("nogi", make_user, "long")
    play(game, match, 60, stop_before_end=True)
    assert match.version >= 15  # the seed is random: Nogi ends after 25 to 40 moves
    return game, match, users


def _replay_url(match):
    return reverse("match_replay", args=[match.pk])


@pytest.mark.parametrize(
    ("at", "expected"),
    [("-5", "0"), ("-0", "0"), ("+3", "3"), (" 4", "4"), ("999999", "last"), ("9" * 40, "last")],
)
def test_an_at_out_of_range_goes_to_the_nearest_step(long_match, at, expected):
    _game, match, _users = long_match
    response = Client().get(_replay_url(match), {"at": at})
    step = match.version if expected == "last" else int(expected)
    assert response.status_code == 302
    assert response["Location"] == f"{_replay_url(match)}?at={step}"
    assert Client().get(response["Location"]).status_code == 200


@pytest.mark.parametrize("at", ["abc", "1e3", "3.5", "٣", "1-2", "--1", "\x00", "0x10"])
def test_an_at_that_is_not_a_number_is_a_404(long_match, at):
    _game, match, _users = long_match
    response = Client().get(_replay_url(match), {"at": at})
    # A NUL byte is refused by the site's middleware before the view (400).
    assert response.status_code == (400 if "\x00" in at else 404)


def test_no_at_shows_the_last_step_and_a_match_not_started_has_no_replay(long_match, make_user):
    _game, match, _users = long_match
    response = Client().get(_replay_url(match))
    assert response.status_code == 200
    assert f'data-step="{match.version}"' in response.content.decode()
    gathering = lobby.create_match(user=make_user("host"), game_key="nogi", n_seats=3)
    assert Client().get(_replay_url(gathering)).status_code == 404


def test_a_private_match_has_no_replay_for_strangers(make_user):
    game = registry.get("nogi")
    users = [make_user(f"priv{i}") for i in range(2)]
    match = lobby.create_match(user=users[0], game_key="nogi", n_seats=2, visibility="private")
    lobby.join_match(user=users[1], match=match, token=match.invite_token)
    match.refresh_from_db()
    play(game, match, 3, stop_before_end=True)
    stranger = Client()
    stranger.force_login(make_user("stranger"))
    assert stranger.get(_replay_url(match), {"at": 1}).status_code == 404
    assert Client().get(_replay_url(match), {"at": 1}).status_code == 404
    player = Client()
    player.force_login(users[1])
    assert player.get(_replay_url(match), {"at": 1}).status_code == 200


def test_the_buttons_are_plain_links_and_the_log_jumps_to_any_step(long_match):
    _game, match, _users = long_match
    body = Client().get(_replay_url(match), {"at": 5}).content.decode()
    url = _replay_url(match)
    assert f'id="replay-previous" href="{url}?at=4"' in body
    assert f'id="replay-next" href="{url}?at=6"' in body
    assert f'id="replay-first" href="{url}?at=0"' in body
    assert f'id="replay-last" href="{url}?at={match.version}"' in body
    jumps = set(re.findall(rf'href="{url}\?at=(\d+)"', body))
    assert {str(seq) for seq in range(match.version + 1)} <= jumps
    assert 'aria-current="step"' in body


def _applies(monkeypatch, game):
    calls = []
    original = type(game).apply

    def counting(self, state, seat, action):
        calls.append(1)
        return original(self, state, seat, action)

    monkeypatch.setattr(type(game), "apply", counting)
    return calls


def test_step_n_does_not_replay_from_the_start_once_positions_are_kept(long_match, monkeypatch):
    game, match, _users = long_match
    step = match.version - 1
    calls = _applies(monkeypatch, game)
    assert Client().get(_replay_url(match), {"at": step}).status_code == 200
    cold = len(calls)
    calls.clear()
    for near in (step, step - 1, 7, 3):
        calls.clear()
        assert Client().get(_replay_url(match), {"at": near}).status_code == 200
        assert len(calls) < replay.CHECKPOINT_EVERY, (near, len(calls), cold)
    assert cold >= step - 1  # the first look rebuilt from the setup


def test_a_kept_step_first_seen_as_the_last_of_a_look_is_kept_for_the_next(long_match, monkeypatch):
    """Step 10 looked at first: its rebuild stops at step 9, so step 10 is not
    kept yet; the look keeps it, and the next look at step 10 applies fewer than
    ``CHECKPOINT_EVERY`` actions (10 before: 9 to step 9, then step 10)."""
    game, match, _users = long_match
    cache.clear()
    calls = _applies(monkeypatch, game)
    assert Client().get(_replay_url(match), {"at": 10}).status_code == 200
    calls.clear()
    assert Client().get(_replay_url(match), {"at": 10}).status_code == 200
    assert len(calls) < replay.CHECKPOINT_EVERY


def _count(queries) -> int:
    return sum("SAVEPOINT" not in q["sql"] for q in queries.captured_queries)


def test_a_step_costs_a_bounded_number_of_queries_whatever_the_matchs_length(make_user):
    game, match, users = start("nogi", make_user, "q")
    play(game, match, 3, stop_before_end=True)
    client = Client()
    client.force_login(users[0])
    counts = []
    for more in (0, 40):
        play(game, match, more, stop_before_end=True)
        client.get(_replay_url(match), {"at": 2})
        with CaptureQueriesContext(connection) as queries:
            assert client.get(_replay_url(match), {"at": 2}).status_code == 200
        counts.append(_count(queries))
    assert counts[0] == counts[1] <= 5, counts


def _page(client, match, **query) -> str:
    text = client.get(_replay_url(match), query).content.decode()
    for pattern in NOISE:
        text = pattern.sub("", text)
    # The language menu returns to the address asked for, query and all.
    text = re.sub(r'name="next" value="[^"]*"', "", text)
    return re.sub(r'href="/accounts/login/\?next=[^"]*"', "", text)


def test_a_player_sees_their_own_secrets_as_they_were_then_and_others_only_after_the_end(
    make_user,
):
    game, match, users = start("seven_dragons", make_user, "s")
    play(game, match, 6, stop_before_end=True)
    log = entries(match)
    spectator = Client()
    player = Client()
    player.force_login(users[0])
    for step in (1, 3, match.version):
        state = replay.state_at(match, game, log, step)
        page = _page(player, match, at=step, **{"as": "1"})
        assert page == _page(player, match, at=step), "while in play, as= changes nothing"
        public = _page(spectator, match, at=step, **{"as": "0"})
        assert public == _page(spectator, match, at=step)
        assert game.view(state, 0) != game.view(state, None)
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    match.refresh_from_db()
    body = _page(spectator, match, at=1, **{"as": "0"})
    assert match.seed in body
    assert body != _page(spectator, match, at=1, **{"as": "public"})


def test_the_move_log_is_append_only_so_kept_positions_stay_true(long_match):
    _game, match, _users = long_match
    assert Move.objects.filter(match=match).count() == match.version + 1


def _line(body: str, seq: int) -> str:
    found = re.search(rf'<li value="{seq}"[^>]*>(.*?)</li>', body, re.S)
    assert found, seq
    return html.unescape(found.group(1))


def test_a_players_later_private_lines_are_not_on_an_earlier_steps_move_list(make_user):
    """Seven Dragons tells each card drawn only to the seat drawing it. On step N
    of a match in play, seat 0's move list holds every move, but a card seat 0
    drew after N is not named there: only the public "drew a card"."""
    game, match, users = start("seven_dragons", make_user, "p")
    play(game, match, 8, stop_before_end=True)
    presenter = presenters.get("seven_dragons")
    names = [seat.player_name for seat in match.seats.order_by("index")]
    private = [
        (move.seq, str(presenter.describe_event(event, names)))
        for move in match.moves.order_by("seq")
        for event in move.events
        if event.get("private_to") == 0
    ]
    later, sentence = private[-1]
    assert later >= 2, "seat 0 drew no card after the first move"
    step = later - 1
    player = Client()
    player.force_login(users[0])
    url = _replay_url(match)
    body = player.get(url, {"at": step}).content.decode()
    assert sentence not in _line(body, later)
    assert f'href="{url}?at={later}"' in body, "the later move is still listed"
    assert "drew a card" in _line(body, later), "in its public form"
    assert sentence in _line(player.get(url, {"at": later}).content.decode(), later)
    # What seat 0 was told up to step N is still theirs to read there (the deal).
    first, dealt = private[0]
    assert first <= step
    assert dealt in _line(body, first)
    # Once the match has ended, every line shows.
    Match.objects.filter(pk=match.pk).update(status=MatchStatus.FINISHED)
    assert sentence in _line(player.get(url, {"at": step}).content.decode(), later)


def test_the_links_to_the_replay_and_the_record_keep_a_private_matchs_token(make_user):
    """A private match opened by its invitation link (``?token=``): the end
    banner's Replay and Print links, the record's Replay link and every step's
    links carry the token, encoded, as the panel's own Replay link does."""
    game = registry.get("nogi")
    users = [make_user(f"tok{i}") for i in range(2)]
    match = lobby.create_match(user=users[0], game_key="nogi", n_seats=2, visibility="private")
    lobby.join_match(user=users[1], match=match, token=match.invite_token)
    match.refresh_from_db()
    play(game, match, 200)
    assert match.status == MatchStatus.FINISHED
    token = match.invite_token
    player = Client()
    player.force_login(users[1])
    page = player.get(reverse("match_detail", args=[match.pk]), {"token": token}).content.decode()
    replay_url, print_url = _replay_url(match), reverse("match_print", args=[match.pk])
    assert f'href="{replay_url}?at=0&amp;token={token}" id="replay-link"' in page
    assert f'href="{print_url}?token={token}" id="print-link"' in page
    record = player.get(print_url, {"token": token}).content.decode()
    assert f'href="{replay_url}?token={token}" id="print-replay-link"' in record
    # A token with characters of its own in a query is encoded, never split.
    odd = "a b&at=1#c"
    assert replay._url(match, 3, "public", odd) == (
        f"{replay_url}?at=3&as=public&token=a+b%26at%3D1%23c"
    )
    step = player.get(replay_url, {"at": 2, "token": odd}).content.decode()
    assert f'href="{replay_url}?at=3&amp;token=a+b%26at%3D1%23c"' in step
    assert f'href="{reverse("match_detail", args=[match.pk])}?token=a%20b%26at%3D1%23c"' in step
    record = player.get(print_url, {"token": odd}).content.decode()
    assert f'href="{replay_url}?token=a%20b%26at%3D1%23c" id="print-replay-link"' in record

"""The rating update (players/ratings.py): every rule of docs/ratings.md, with
the exact values OpenSkill's Plackett-Luce model computes for the same
input, reached through the real finishing paths (a game's last move, a
moderator's adjudication, a resignation, the clock's sweep)."""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from openskill.models import PlackettLuce

from games.catalog.drakon.rules.state import teams as drakon_teams
from games.engine import registry
from games.lobby import services as lobby
from games.models import STRIKES_BEFORE_BOT, MatchStatus, SeatStatus, TimeoutPolicy, Visibility
from games.moderation import actions as moderation
from games.play import safety, services, timeouts
from players import ratings
from players.models import (
    PROVISIONAL_MATCHES,
    START_MU,
    START_SIGMA,
    Rating,
    RatingChange,
    display_of,
)
from tests.conftest import each_seat_moves
from tests.players.conftest import finish, start_match

pytestmark = pytest.mark.django_db

PL = PlackettLuce()


def state_of(users, game_key="nogi") -> dict[int, tuple[float, float]]:
    """{user id: (mu, sigma)} as stored, a newcomer's for a player with no row."""
    rows = {
        r.user_id: (r.mu, r.sigma) for r in Rating.objects.filter(game_key=game_key, user__in=users)
    }
    return {u.pk: rows.get(u.pk, (START_MU, START_SIGMA)) for u in users}


def fresh(*users) -> dict[int, tuple[float, float]]:
    """Newcomers' ratings."""
    return {u.pk: (START_MU, START_SIGMA) for u in users}


def expected(before, teams_of_users, ranks) -> dict[int, tuple[float, float]]:
    """What OpenSkill itself computes: teams of users with their ratings before."""
    rosters = [[PL.rating(*before[u.pk]) for u in team] for team in teams_of_users]
    rated = PL.rate(rosters, ranks=ranks)
    return {
        u.pk: (r.mu, r.sigma)
        for team, rated_team in zip(teams_of_users, rated, strict=True)
        for u, r in zip(team, rated_team, strict=True)
    }


def assert_stored(want: dict[int, tuple[float, float]], game_key="nogi") -> None:
    for user_id, (mu, sigma) in want.items():
        row = Rating.objects.get(user_id=user_id, game_key=game_key)
        assert (row.mu, row.sigma) == (mu, sigma)  # exactly: the same computation
        assert row.display == display_of(mu, sigma)


def test_two_players_winner_rises_loser_falls_exactly_as_openskill(players):
    ann, ben = players[:2]
    match = start_match([ann, ben])
    assert match.rated
    before = state_of([ann, ben])
    match = finish(match, [1, 2])
    want = expected(before, [[ann], [ben]], [1, 2])
    assert_stored(want)
    win, loss = (Rating.objects.get(user=u, game_key="nogi") for u in (ann, ben))
    assert win.mu > START_MU > loss.mu
    assert (win.rated_matches, win.wins, loss.rated_matches, loss.wins) == (1, 1, 1, 0)
    assert win.provisional and loss.provisional
    assert win.last_played_at == loss.last_played_at == match.finished_at
    changes = {c.user_id: c for c in RatingChange.objects.filter(match=match)}
    assert set(changes) == {ann.pk, ben.pk}
    for user, seat, rank in ((ann, 0, 1), (ben, 1, 2)):
        change = changes[user.pk]
        assert (change.seat, change.rank, change.game_key) == (seat, rank, "nogi")
        assert (change.mu_before, change.sigma_before) == (START_MU, START_SIGMA)
        assert (change.mu_after, change.sigma_after) == want[user.pk]
        assert change.display_before == display_of(START_MU, START_SIGMA)
        assert change.display_after == display_of(*want[user.pk])
        assert change.rated_at == match.finished_at
    assert changes[ann.pk].delta > 0 > changes[ben.pk].delta


def test_tied_players_share_a_rank_and_equal_players_get_equal_changes(players):
    ann, ben, cid = players[:3]
    match = start_match([ann, ben, cid])
    match = finish(match, [1, 1, 3])
    want = expected(fresh(ann, ben, cid), [[ann], [ben], [cid]], [1, 1, 3])
    assert_stored(want)
    a, b = (RatingChange.objects.get(match=match, user=u) for u in (ann, ben))
    assert (a.rank, b.rank) == (1, 1)
    assert (a.mu_after, a.sigma_after) == (b.mu_after, b.sigma_after)
    assert a.delta == b.delta > 0
    # Both share the win.
    assert Rating.objects.filter(user__in=[ann, ben], wins=1).count() == 2


@pytest.mark.parametrize("n", [3, 5, 7])
def test_three_to_seven_players_are_rated_from_their_ranks(players, n):
    users = players[:n]
    # Different ratings before, from an earlier match of all of them.
    finish(start_match(users), list(range(1, n + 1)))
    before = state_of(users)
    ranks = random.Random(n).sample(range(1, n + 1), n)
    ranks[1] = ranks[0]  # and a tie
    match = start_match(list(reversed(users)))  # other seats this time
    seat_ranks = list(reversed(ranks))  # users[i] sits in seat n-1-i
    match = finish(match, seat_ranks)
    # The same input as OpenSkill's own call: the seats in order (a sum
    # over them in another order may differ in the last bit).
    seated = list(reversed(users))
    want = expected(before, [[u] for u in seated], seat_ranks)
    assert_stored(want)
    for i, user in enumerate(users):
        change = RatingChange.objects.get(match=match, user=user)
        assert (change.seat, change.rank) == (n - 1 - i, ranks[i])
        assert (change.mu_before, change.sigma_before) == before[user.pk]
        row = Rating.objects.get(user=user, game_key="nogi")
        assert row.rated_matches == 2
        assert row.wins == (i == 0) + (ranks[i] == 1)


def test_drakon_team_play_rates_the_teams_as_teams(players):
    users = players[:4]
    # Different ratings before: two earlier matches of Drakon.
    finish(start_match(users[:2], "drakon"), [1, 2])
    finish(start_match(users[1:], "drakon"), [3, 1, 2])
    before = state_of(users, "drakon")
    assert len(set(before.values())) == 4
    match = start_match(users, "drakon", {"team_play": True})
    teams = drakon_teams(match.state)
    assert teams == [[0, 2], [1, 3]]
    # The second team wins: Drakon's result names the teams and ranks
    # teammates alike.
    match = finish(match, [2, 1, 2, 1], {"teams": teams, "winners": [1, 3]})
    want = expected(before, [[users[0], users[2]], [users[1], users[3]]], [2, 1])
    assert_stored(want, "drakon")
    # Not what rating each seat on its own would give.
    alone = expected(before, [[u] for u in users], [2, 1, 2, 1])
    assert want[users[0].pk] != alone[users[0].pk]
    # The winning team's players both rise, the losing team's both fall.
    for user in users:
        assert (want[user.pk][0] > before[user.pk][0]) == (user in (users[1], users[3]))
    ranks = dict(RatingChange.objects.filter(match=match).values_list("user_id", "rank"))
    assert ranks == {users[0].pk: 2, users[1].pk: 1, users[2].pk: 2, users[3].pk: 1}


def test_a_resigner_is_ranked_last_and_rated_so(players):
    ann, ben, cid = players[:3]
    match = start_match([ann, ben, cid])
    safety.resign(user=ann, match=match)
    # The game goes on with a bot in ann's seat, and that bot wins it.
    match = finish(match, [1, 2, 3])
    want = expected(fresh(ann, ben, cid), [[ben], [cid], [ann]], [1, 2, 3])
    assert_stored(want)
    assert RatingChange.objects.get(match=match, user=ann).rank == 3
    assert Rating.objects.get(user=ann, game_key="nogi").wins == 0
    assert Rating.objects.get(user=ben, game_key="nogi").wins == 1


def test_resigning_a_two_player_loss_on_time_match_loses_it(players):
    ann, ben = players[:2]
    match = each_seat_moves(start_match([ann, ben], timeout_policy=TimeoutPolicy.LOSS))
    safety.resign(user=ann, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert_stored(expected(fresh(ann, ben), [[ben], [ann]], [1, 2]))
    assert RatingChange.objects.get(match=match, user=ann).rank == 2


def test_a_loss_on_time_is_the_players_result(players):
    ann, ben = players[:2]
    match = start_match(
        [ann, ben],
        "hatchlings",
        timeout_policy=TimeoutPolicy.LOSS,
        time_per_move=timedelta(hours=1),
    )
    match = each_seat_moves(match)  # else the loss on time aborts the match
    (late,) = registry.get("hatchlings").current_seats(match.state)
    late_user = [ann, ben][late]
    assert timeouts.wake_match(match.pk, now=match.deadline + timedelta(seconds=1)) == "timed out"
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    winner = ben if late_user == ann else ann
    want = expected(fresh(ann, ben), [[winner], [late_user]], [1, 2])
    assert_stored(want, "hatchlings")
    assert RatingChange.objects.get(match=match, user=late_user).rank == 2
    assert Rating.objects.get(user=late_user, game_key="hatchlings").rated_matches == 1


def test_a_seat_the_bot_played_after_timeouts_is_the_players_result(players):
    ann, ben, cid = players[:3]
    match = start_match([ann, ben, cid], time_per_move=timedelta(hours=1))
    game = registry.get("nogi")
    # Everyone plays but cid, whose turns the clock hands to the bot.
    while match.seats.get(user=cid).status != SeatStatus.BOT:
        (seat,) = game.current_seats(match.state)
        if seat == 2:
            timeouts.wake_match(match.pk, now=match.deadline + timedelta(seconds=1))
        else:
            user = [ann, ben][seat]
            action = game.legal_actions(match.state, seat)[0]
            services.submit_action(match, user, action, match.version)
        match.refresh_from_db()
        assert match.status == MatchStatus.ACTIVE
    assert match.seats.get(user=cid).strikes == STRIKES_BEFORE_BOT
    # The bot then plays cid's seat to a win; the seat is still cid's, last.
    match = finish(match, [2, 3, 1])
    assert match.result["dropped"] == [2]
    want = expected(fresh(ann, ben, cid), [[ann], [ben], [cid]], [1, 2, 3])
    assert_stored(want)
    change = RatingChange.objects.get(match=match, user=cid)
    assert (change.seat, change.rank) == (2, 3)
    assert Rating.objects.get(user=cid, game_key="nogi").rated_matches == 1


def test_a_match_filled_with_a_bot_is_unrated(players):
    ann, ben = players[:2]
    match = lobby.create_match(user=ann, game_key="nogi", n_seats=3)
    assert match.rated  # public, so rated until a bot takes a seat
    lobby.join_match(user=ben, match=match)
    lobby.fill_with_bots(user=ann, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE and not match.rated
    match = finish(match, [1, 2, 3])
    assert not RatingChange.objects.exists()
    assert not Rating.objects.filter(rated_matches__gt=0).exists()


def test_an_unrated_match_changes_nothing(players):
    ann, ben = players[:2]
    match = start_match([ann, ben], rated=False)
    private = start_match([ann, ben], visibility=Visibility.PRIVATE)
    assert not match.rated and not private.rated  # private matches are unrated by default
    match = finish(match, [1, 2])
    finish(private, [2, 1])
    assert not RatingChange.objects.exists()
    assert not Rating.objects.exists()


def test_an_aborted_match_changes_nothing(players, moderator):
    ann, ben = players[:2]
    finish(start_match([ann, ben]), [1, 2])
    snapshot = list(Rating.objects.order_by("pk").values())
    match = start_match([ann, ben])
    moderation.abort_match(moderator, match, "Players asked for it")
    match.refresh_from_db()
    assert match.status == MatchStatus.ABORTED
    # An open match left by everyone is aborted too.
    left = lobby.create_match(user=ann, game_key="nogi", n_seats=2)
    lobby.leave_match(user=ann, match=left)
    assert list(Rating.objects.order_by("pk").values()) == snapshot
    assert RatingChange.objects.count() == 2
    assert ratings.recompute() == 1
    assert list(Rating.objects.order_by("pk").values()) == snapshot


def _ratings_and_changes():
    rows = list(
        Rating.objects.order_by("user_id", "game_key").values_list(
            "user_id",
            "game_key",
            "mu",
            "sigma",
            "display",
            "rated_matches",
            "wins",
            "last_played_at",
        )
    )
    changes = list(
        RatingChange.objects.order_by("match_id", "user_id").values_list(
            "match_id",
            "user_id",
            "seat",
            "rank",
            "mu_before",
            "sigma_before",
            "mu_after",
            "sigma_after",
            "display_before",
            "display_after",
            "rated_at",
        )
    )
    return rows, changes


def test_correcting_a_finished_result_recomputes_it_and_every_later_match(players, moderator):
    ann, ben, cid, dan = players[:4]
    first = finish(start_match([ann, ben]), [1, 2])
    finish(start_match([ben, cid]), [1, 2])
    finish(start_match([cid, ann, dan]), [2, 1, 3])
    finish(start_match([dan, ann], "hatchlings"), [1, 2])
    finish(start_match([dan, ben]), [1, 2])  # later, but shares nobody with ann's changes
    before_rows, _changes = _ratings_and_changes()
    hatchlings = list(Rating.objects.filter(game_key="hatchlings").values())

    moderation.correct_result(moderator, first, [2, 1], "Ann broke the rules; Ben wins")

    first.refresh_from_db()
    assert first.status == MatchStatus.FINISHED
    assert RatingChange.objects.get(match=first, user=ann).rank == 2
    assert RatingChange.objects.get(match=first, user=ben).rank == 1
    after = _ratings_and_changes()
    assert after[0] != before_rows
    assert Rating.objects.get(user=ann, game_key="nogi").wins == 1  # the third match
    assert Rating.objects.get(user=ben, game_key="nogi").wins == 2  # first and second
    # What a rebuild of everything from the history gives, exactly.
    ratings.recompute()
    assert _ratings_and_changes() == after
    # Another game's ratings are not touched.
    assert list(Rating.objects.filter(game_key="hatchlings").values()) == hatchlings


def test_correcting_twice_and_back_gives_the_first_ratings(players, moderator):
    ann, ben, cid = players[:3]
    first = finish(start_match([ann, ben, cid]), [1, 2, 3])
    finish(start_match([cid, ann]), [1, 2])
    original = _ratings_and_changes()
    moderation.correct_result(moderator, first, [3, 1, 2], "A wrong adjudication")
    assert _ratings_and_changes()[0] != original[0]
    moderation.correct_result(moderator, first, [1, 2, 3], "Set it right again")
    rows, changes = _ratings_and_changes()
    assert rows == original[0]
    assert [c[2:] for c in changes] == [c[2:] for c in original[1]]


def test_provisional_until_the_documented_number_of_rated_matches_and_wins_counted(players):
    ann, ben = players[:2]
    for i in range(PROVISIONAL_MATCHES):
        row = Rating.objects.filter(user=ann, game_key="nogi").first()
        assert row is None or row.provisional
        finish(start_match([ann, ben]), [1, 2] if i % 2 == 0 else [2, 1])
    row = Rating.objects.get(user=ann, game_key="nogi")
    assert not row.provisional and row.rated_matches == PROVISIONAL_MATCHES
    assert row.wins == (PROVISIONAL_MATCHES + 1) // 2
    assert Rating.objects.get(user=ben, game_key="nogi").wins == PROVISIONAL_MATCHES // 2


def test_a_real_game_played_to_its_end_is_rated(players):
    """Hatchlings (the test game) played move by move through submit_action."""
    ann, ben = players[:2]
    match = start_match([ann, ben], "hatchlings")
    game = registry.get("hatchlings")
    rng = random.Random(23)
    while match.status == MatchStatus.ACTIVE:
        (seat,) = game.current_seats(match.state)
        action = rng.choice(game.legal_actions(match.state, seat))
        services.submit_action(match, [ann, ben][seat], action, match.version)
        match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    ranks = game.result(match.state).ranks
    want = expected(fresh(ann, ben), [[ann], [ben]], ranks)
    assert_stored(want, "hatchlings")
    assert sorted(RatingChange.objects.filter(match=match).values_list("seat", "rank")) == [
        (0, ranks[0]),
        (1, ranks[1]),
    ]
    assert match.finished_at == RatingChange.objects.filter(match=match).first().rated_at


def test_the_rating_rows_exist_from_a_rated_matchs_start(players):
    ann, ben = players[:2]
    start_match([ann, ben])
    assert Rating.objects.filter(game_key="nogi", rated_matches=0).count() == 2


def test_an_adjudicated_team_match_is_rated_team_against_team(players, moderator):
    users = players[:4]
    finish(start_match(users[:2], "drakon"), [1, 2])
    before = state_of(users, "drakon")
    match = start_match(users, "drakon", {"team_play": True})
    assert drakon_teams(match.state) == [[0, 2], [1, 3]]
    moderation.adjudicate(moderator, match, [2, 1, 2, 1], "both teams agreed to stop here")
    match.refresh_from_db()
    assert match.result["details"]["teams"] == [[0, 2], [1, 3]]
    assert_stored(expected(before, [[users[0], users[2]], [users[1], users[3]]], [2, 1]), "drakon")

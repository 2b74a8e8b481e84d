"""The statistics on the player page (``players.statistics``), kept current
as matches end (``players.outcomes``, from the match-ended receiver)."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from games.models import Visibility
from games.moderation import actions
from players import outcomes, statistics
from players.models import Outcome
from tests.players.conftest import finish, start_match

pytestmark = pytest.mark.django_db


def _stats(user, key: str = "nogi") -> statistics.GameStatistics:
    return next(s for s in statistics.for_player(user) if s.key == key)


def test_a_finished_match_gives_each_human_seat_one_result(players):
    ann, ben = players[:2]
    match = finish(start_match([ann, ben]), [2, 1])
    rows = {row.user_id: row for row in Outcome.objects.filter(match=match)}
    assert rows[ann.pk].rank == 2 and not rows[ann.pk].won
    assert rows[ben.pk].rank == 1 and rows[ben.pk].won and rows[ben.pk].streak == 1
    assert rows[ben.pk].players == 2 and rows[ben.pk].finished_at == match.finished_at
    first = outcomes.first_seat(match)
    assert first in (0, 1)
    assert rows[ann.pk].first == (first == 0) and rows[ben.pk].first == (first == 1)


def test_an_aborted_match_counts_for_nothing(players, moderator):
    ann, ben = players[:2]
    match = start_match([ann, ben])
    actions.abort_match(moderator, match, "test of an aborted match")
    assert not Outcome.objects.filter(match=match).exists()
    assert statistics.for_player(ann) == []


def test_private_unrated_matches_count_as_played(players):
    ann, ben = players[:2]
    finish(start_match([ann, ben], visibility=Visibility.PRIVATE, rated=False), [1, 2])
    stats = _stats(ann)
    assert (stats.overall.played, stats.overall.wins, stats.overall.share) == (1, 1, 100)


def test_wins_share_streaks_and_recent_form(players):
    ann, ben = players[:2]
    # Oldest first: won, won, lost, won, won, won, lost, won.
    for ann_won in [True, True, False, True, True, True, False, True]:
        finish(start_match([ann, ben]), [1, 2] if ann_won else [2, 1])
    stats = _stats(ann)
    assert (stats.overall.played, stats.overall.wins, stats.overall.share) == (8, 6, 75)
    assert stats.longest_streak == 3
    assert stats.current_streak == 1
    assert [e.rank for e in stats.form] == [1, 2, 1, 1, 1, 2, 1, 1]  # newest first
    assert stats.form_wins == 6
    ben_stats = _stats(ben)
    assert (ben_stats.overall.wins, ben_stats.longest_streak, ben_stats.current_streak) == (2, 1, 0)
    # The two seats' tallies add up to the whole.
    assert stats.moved_first.played + stats.moved_later.played == 8


def test_recent_form_keeps_the_last_ten_of_each_game(players):
    ann, ben = players[:2]
    for i in range(12):
        finish(start_match([ann, ben]), [1, 2] if i < 2 else [2, 1])
    finish(start_match([ann, ben], "drako"), [1, 2])
    nogi = _stats(ann)
    assert len(nogi.form) == statistics.FORM_LENGTH
    assert nogi.form_wins == 0  # the two wins were the oldest
    assert nogi.longest_streak == 2 and nogi.current_streak == 0
    assert [e.rank for e in _stats(ann, "drako").form] == [1]


def test_by_player_count_and_average_place_in_multiplayer(players):
    ann, ben, cid, dan = players[:4]
    finish(start_match([ann, ben, cid]), [1, 2, 3])
    finish(start_match([ann, ben, cid]), [3, 1, 2])
    finish(start_match([ann, ben, cid, dan]), [2, 1, 3, 4])
    finish(start_match([ann, ben]), [2, 1])  # two players: no place in the average
    stats = _stats(ann)
    assert stats.multiplayer == 3
    assert stats.average_place == 2.0
    by_count = {n: (t.played, t.wins) for n, t in stats.by_players}
    assert by_count == {2: (1, 0), 3: (2, 1), 4: (1, 0)}
    labels = [label for label, _tally in stats.rows]
    assert "3 players" in labels and "All matches" in labels


def test_drako_counts_the_dragon_and_the_dwarves_apart(players):
    ann, ben = players[:2]
    options = {"sides": "seat1_dragon"}
    finish(start_match([ann, ben], "drako", options=options), [1, 2])  # ann the dragon, won
    finish(start_match([ben, ann], "drako", options=options), [1, 2])  # ann the dwarves, lost
    finish(start_match([ben, ann], "drako", options=options), [2, 1])  # ann the dwarves, won
    sides = {label: (t.played, t.wins) for label, t in _stats(ann, "drako").sides}
    assert sides == {"As the dragon": (1, 1), "As the dwarves": (2, 1)}


def test_a_corrected_result_changes_the_results_and_the_streaks(players, moderator):
    ann, ben = players[:2]
    first = finish(start_match([ann, ben]), [1, 2])
    finish(start_match([ann, ben]), [1, 2])
    assert _stats(ann).longest_streak == 2
    actions.correct_result(moderator, first, [2, 1], "the first result was wrong")
    stats = _stats(ann)
    assert (stats.overall.wins, stats.longest_streak, stats.current_streak) == (1, 1, 1)
    assert Outcome.objects.get(match=first, user=ben).won


def test_rebuilding_gives_the_same_rows_as_keeping_them_current(players):
    ann, ben, cid = players[:3]
    for ranks in ([1, 2, 3], [1, 3, 2], [2, 1, 3], [1, 2, 3]):
        finish(start_match([ann, ben, cid]), ranks)
    finish(start_match([ann, ben], "drako"), [2, 1])
    fields = ("match_id", "user_id", "first", "side", "rank", "won", "streak", "players")
    kept = sorted(Outcome.objects.values_list(*fields))
    call_command("rebuild_statistics", stdout=open("/dev/null", "w"))  # noqa: SIM115
    assert sorted(Outcome.objects.values_list(*fields)) == kept


def test_head_to_head_counts_who_finished_ahead(players):
    ann, ben, cid = players[:3]
    finish(start_match([ann, ben]), [1, 2])
    finish(start_match([ann, ben]), [2, 1])
    finish(start_match([ann, ben, cid]), [1, 3, 2])
    finish(start_match([ann, cid]), [1, 2])  # without ben
    finish(start_match([ann, ben], "drako"), [1, 2])
    meetings = {m.key: m for m in statistics.head_to_head(ann, ben)}
    nogi = meetings["nogi"]
    assert (nogi.played, nogi.mine, nogi.theirs, nogi.even) == (3, 2, 1, 0)
    assert (meetings["drako"].played, meetings["drako"].mine) == (1, 1)
    assert statistics.head_to_head(ann, ann) == []


def test_the_player_page_shows_the_statistics_and_you_and_them(players):
    ann, ben = players[:2]
    finish(start_match([ann, ben]), [1, 2])
    url = reverse("player_page", args=[ben.username])
    anonymous = Client().get(url).content.decode()
    assert 'id="stats-nogi"' in anonymous
    assert 'id="you-and-them"' not in anonymous
    client = Client()
    client.force_login(ann)
    page = client.get(url).content.decode()
    assert "You and p1" in page and 'id="meeting-nogi"' in page
    assert "1 match together" in page
    own = client.get(reverse("player_page", args=[ann.username])).content.decode()
    assert 'id="you-and-them"' not in own and 'id="stats-nogi"' in own


def test_a_player_without_results_is_told_so(players):
    client = Client()
    client.force_login(players[0])
    page = client.get(reverse("player_page", args=[players[1].username])).content.decode()
    assert "No finished match yet." in page
    assert "You have not finished a match together yet." in page


def test_a_match_ends_even_when_its_opening_cannot_be_set_up_again(players, monkeypatch):
    from games.engine import registry
    from games.models import MatchStatus

    ann, ben = players[:2]
    match = start_match([ann, ben])
    game = registry.get("nogi")

    def broken(*args, **kwargs):
        raise RuntimeError("no such opening")

    monkeypatch.setattr(game, "setup_for", broken)
    match = finish(match, [1, 2])
    assert match.status == MatchStatus.FINISHED
    rows = Outcome.objects.filter(match=match)
    assert rows.count() == 2 and all(row.first is None for row in rows)
    stats = _stats(ann)
    assert stats.overall.played == 1 and stats.moved_first.played == stats.moved_later.played == 0

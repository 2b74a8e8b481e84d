"""The daily limit of matches between bot accounts holds for tournaments too
(``docs/api.md``, "Bot against bot"): a tournament's schedule cannot refuse
a pairing, so a bot account enters only when its matches against bots of
the last day plus the most the tournament may ask of it stay within the
limit, and the rounds it is promised count toward the limit of every
challenge it takes afterwards; a tournament's matches count as any match."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.utils import timezone, translation

from accounts import bots
from core.errors import Forbidden
from games.lobby import services as lobby
from games.play import bot_accounts
from tests.tournaments.conftest import finish, running_matches
from tournaments import services as tournaments
from tournaments.models import Entrant, Format, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def limit(settings):
    settings.SMOKI = {**settings.SMOKI, "BOT_MATCHES_PER_DAY": 3}
    return 3


def _bot(make_user, name):
    user = make_user(name)
    bots.become_bot(user)
    return get_user_model().objects.select_related("profile").get(pk=user.pk)


def _cup(creator, *, rounds=2, format=Format.SWISS, max_entrants=8, **kw) -> Tournament:
    return tournaments.create_tournament(
        user=creator,
        name="Bots' cup",
        game_key="nogi",
        table_size=2,
        format=format,
        rounds=rounds,
        starts_at=timezone.now() + timedelta(hours=1),
        min_entrants=2,
        max_entrants=max_entrants,
        bots_allowed=True,
        rated=False,
        **kw,
    )


def _bot_match(one, two):
    """One match between two bot accounts, made today."""
    match = lobby.create_match(user=one, game_key="nogi", n_seats=2, rated=False)
    lobby.join_match(user=two, match=match)
    return match


def test_a_bot_enters_only_a_tournament_its_day_has_room_for(limit, make_user, alice):
    one, two = _bot(make_user, "one"), _bot(make_user, "two")
    _bot_match(one, two)
    assert bot_accounts.bot_matches_today(one.pk) == 1
    three_rounds = _cup(alice, rounds=3)
    with pytest.raises(Forbidden, match="at most 3 matches against bot accounts a day"):
        tournaments.join(user=one, tournament=three_rounds)
    assert not Entrant.objects.filter(user=one).exists()
    two_rounds = _cup(alice, rounds=2)
    tournaments.join(user=one, tournament=two_rounds)  # 1 today + 2 rounds = 3
    assert Entrant.objects.filter(user=one, tournament=two_rounds).exists()


def test_the_most_a_tournament_may_ask_of_an_entrant(alice):
    assert bot_accounts.tournament_matches_ahead_of(_cup(alice, rounds=5)) == 5
    knockout = _cup(alice, format=Format.KNOCKOUT, rounds=0, max_entrants=8)
    assert bot_accounts.tournament_matches_ahead_of(knockout) == 3
    robin = _cup(alice, format=Format.ROUND_ROBIN, rounds=0, max_entrants=6)
    assert bot_accounts.tournament_matches_ahead_of(robin) == 5


def test_a_tournaments_rounds_to_come_count_toward_a_challenge(limit, make_user, alice):
    one, two = _bot(make_user, "one"), _bot(make_user, "two")
    cup = _cup(alice, rounds=2)
    tournaments.join(user=one, tournament=cup)
    assert bot_accounts.committed(one.pk) == 2
    _bot_match(one, two)  # 1 today + 2 promised = 3: the day is full
    refused = lobby.create_match(user=two, game_key="nogi", n_seats=2, rated=False)
    with pytest.raises(Forbidden, match="promised to its tournaments"):
        lobby.join_match(user=one, match=refused)
    assert not refused.seats.filter(user=one).exists()
    # Withdrawn before the start, the promise is gone.
    tournaments.leave(user=one, tournament=cup)
    assert bot_accounts.committed(one.pk) == 0
    lobby.join_match(user=one, match=refused)
    assert refused.seats.filter(user=one).exists()


def test_a_running_tournaments_matches_count_and_its_rounds_to_come_are_promised(limit, make_user):
    one, two = _bot(make_user, "one"), _bot(make_user, "two")
    host = make_user("host")
    cup = _cup(host, rounds=2)
    tournaments.leave(user=host, tournament=cup)
    tournaments.join(user=one, tournament=cup)
    tournaments.join(user=two, tournament=cup)
    assert tournaments.start(cup.pk, now=cup.starts_at) == "started"
    # Round 1's match between the two bots counts as any match of the day,
    # and round 2 is still promised.
    assert bot_accounts.bot_matches_today(one.pk) == 1
    assert bot_accounts.committed(one.pk) == 1
    for match in running_matches(cup):
        finish(match, [1, 2])
    tournaments.advance(cup.pk)
    assert bot_accounts.bot_matches_today(one.pk) == 2
    assert bot_accounts.committed(one.pk) == 0
    # 2 played + a third: the day's last; a fourth is refused.
    _bot_match(one, two)
    with pytest.raises(Forbidden, match="3 matches against bot accounts for today"):
        _bot_match(two, one)


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", "this tournament's 3 rounds could pass that"),
        ("pl", "rundy tego turnieju (3) mogłyby ten limit przekroczyć"),
        ("cs", "kola tohoto turnaje (3) mohla tento limit překročit"),
    ],
)
def test_the_entry_refusal_speaks_each_language(limit, make_user, alice, language, words):
    one, two = _bot(make_user, "one"), _bot(make_user, "two")
    _bot_match(one, two)
    cup = _cup(alice, rounds=3)
    with translation.override(language), pytest.raises(Forbidden) as refusal:
        tournaments.join(user=one, tournament=cup)
    assert words in refusal.value.message

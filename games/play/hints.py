"""Hints in practice: in an unrated match against bots only, the player to
move may ask the strong bot what it would do, with its estimated chance.

Never in a match with another person (a seat a person took, even one a bot
now plays for them), never in a rated one. The suggestion is computed from
what the asking seat may know only: the search starts from a sample of the
hidden information drawn from the seat's view (``sample_secrets``), so two
positions that look the same to the seat get the same hint. Each hint is
kept (``games.models.Hint``, one per seat and turn), so the match's log and
its replay say that hints were used, and where.

The search runs outside any lock (it takes up to the strong bot's budget);
the hint is written in a short transaction that checks the turn is still
the one it was computed for.
"""

from __future__ import annotations

from django.db import IntegrityError, transaction
from django.utils.translation import gettext as _

from core.errors import Conflict, Forbidden
from games.engine import registry
from games.engine.bots import choose_with_report
from games.engine.rng import Rng
from games.models import Hint, Match, MatchStatus, SeatStatus
from games.play import services
from games.play.access import seat_of


def offered(match: Match, seats, user) -> bool:
    """Whether ``user`` may ask for a hint in ``match`` now: a practice match
    (unrated, every other seat a bot from the start), in play, their turn."""
    if match.status != MatchStatus.ACTIVE or match.rated:
        return False
    mine = [s for s in seats if user.is_authenticated and s.user_id == user.pk]
    if len(mine) != 1 or mine[0].status != SeatStatus.PLAYING:
        return False
    if not all(s.is_bot for s in seats if s.index != mine[0].index):
        return False
    game = registry.get(match.game_key)
    return mine[0].index in match.seats_to_move(game)


def suggest(game_key: str, state, seat: int, seed: str, budget) -> tuple[dict, float | None]:
    """The strong bot's choice for ``seat`` and its estimated chance, from a
    sample of what the seat cannot see (never the real hidden cards, the
    dice to come or the seed's stream: ``seed`` only feeds the sampling)."""
    game = registry.get(game_key)
    rng = Rng.from_seed(seed)
    seen = game.sample_secrets(state, seat, rng)
    result = choose_with_report(game_key, seen, seat, rng, "strong", budget)
    return result.action, result.value


def ask(*, user, match: Match, version: int) -> Hint:
    """The hint for the player's current turn, computed once and kept.

    Refused (nothing written) in a match where hints are not offered, and
    when ``version`` is not the match's current one (the turn moved on)."""
    seats = list(match.seats.all())
    if not offered(match, seats, user):
        raise Forbidden(_("Hints are offered only in unrated practice matches against bots."))
    if version != match.version:
        raise Conflict(_("The match has moved on; here is where it stands now."))
    seat = seat_of(match, user)
    existing = Hint.objects.filter(match=match, seat=seat.index, version=version).first()
    if existing is not None:
        return existing
    action, chance = suggest(
        match.game_key,
        match.state,
        seat.index,
        f"hint:{match.seed}:{version}:{seat.index}",
        services.strong_budget(),
    )
    with transaction.atomic():
        locked = services.lock_match(match)
        if locked.version != version or locked.status != MatchStatus.ACTIVE:
            raise Conflict(_("The match has moved on; here is where it stands now."))
        try:
            with transaction.atomic():
                return Hint.objects.create(
                    match=locked, seat=seat.index, version=version, action=action, chance=chance
                )
        except IntegrityError:  # the same hint, asked twice at once
            return Hint.objects.get(match=locked, seat=seat.index, version=version)


def current(match: Match, seat_index: int | None) -> Hint | None:
    """The hint given to the seat for the match's current turn, if any."""
    if seat_index is None:
        return None
    return Hint.objects.filter(match=match, seat=seat_index, version=match.version).first()


def used(match: Match) -> list[Hint]:
    """Every hint of the match, in the order of the turns (the replay's note)."""
    return list(Hint.objects.filter(match=match))

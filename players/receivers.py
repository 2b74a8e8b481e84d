"""The ratings and the statistics follow the matches (``games.signals``):
rating rows for the players of a rated match at its start; the ratings of a
finished rated match and every finished match's results for the statistics
(``players.outcomes``) at its end (the one place a finished match tells the
players' layer); and every rating from a corrected match on, and its
results, when a moderator changes its result. Each runs inside the
transaction that sent it."""

from games import signals
from games.models import MatchStatus
from players import outcomes, ratings


def _match_started(sender, match, seats, **kwargs) -> None:
    if match.rated:
        ratings.ensure_ratings(match.game_key, [seat.user_id for seat in seats])


def _match_ended(sender, match, seats, **kwargs) -> None:
    if match.status == MatchStatus.FINISHED:
        ratings.rate_match(match, seats)
        outcomes.record(match, seats)


def _result_corrected(sender, match, seats, **kwargs) -> None:
    ratings.rerate_from(match)
    outcomes.correct(match, seats)


def connect() -> None:
    signals.match_started.connect(_match_started, dispatch_uid="players.match_started")
    signals.match_ended.connect(_match_ended, dispatch_uid="players.match_ended")
    signals.result_corrected.connect(_result_corrected, dispatch_uid="players.result_corrected")

"""A match's bots: which bot seats the rules wait on, and a bot's move in a
match (its randomness derived from the match's secret seed). The levels and
the search are the engine's (``games.engine.bots``)."""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from games.engine import search
from games.engine.bots import choose
from games.engine.rng import Rng

#: The bot levels a player may choose to play against, weakest first.
PLAY_BOT_LEVELS = [
    ("random", _("random bot")),
    ("heuristic", _("heuristic bot")),
    ("strong", _("strong bot")),
]

#: What each level is, in a player's words, where a player picks one.
BOT_LEVEL_ABOUT = {
    "random": _("easiest, plays any legal move"),
    "heuristic": _("plays the best-looking move of each turn"),
    "strong": _("hardest, thinks ahead before each move"),
}


def bot_seats_to_act(match, game, seats=None) -> list:
    """The bot-played seats the rules are waiting on now."""
    waiting = set(match.seats_to_move(game))
    if not waiting:
        return []
    seats = match.seats.all() if seats is None else seats
    return [seat for seat in seats if seat.index in waiting and seat.played_by_bot]


def choose_action(match, game, seat, budget: search.Budget | None = None) -> dict:
    """Ask the game's bot for a move. Its randomness is private to the server
    (derived from the secret seed) yet repeatable for a given position."""
    rng = Rng.from_seed(f"bot:{match.seed}:{match.version}:{seat.index}")
    return choose(match.game_key, match.state, seat.index, rng, seat.bot_level, budget)

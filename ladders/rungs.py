"""The ladder's arithmetic, shared by its services and selectors: which games
have a ladder, how far up a player may challenge, and moving a winner up.

Places are positions in rung order (1 at the top); rungs may have gaps.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import F

from games.engine import registry
from ladders.models import Entry


def ladder_games() -> list:
    """Every registered game two can play (its fewest players is 2): a
    two-player game, or one played two-handed."""
    return [game for game in registry.all() if game.min_players == 2]


def ladder_game(game_key: str):
    """The game of a ladder, or None when ``game_key`` has none."""
    try:
        game = registry.get(game_key)
    except KeyError:
        return None
    return game if game.min_players == 2 else None


def reach() -> int:
    """How many places above their own a player may challenge."""
    return settings.SMOKI["LADDER_REACH"]


def accept_within() -> timedelta:
    return timedelta(days=settings.SMOKI["LADDER_ACCEPT_DAYS"])


def places_between(entries: list[Entry], lower: Entry, upper: Entry) -> int:
    """How many places ``upper`` is above ``lower`` among ``entries`` (sorted by rung)."""
    rungs = [entry.rung for entry in entries]
    return rungs.index(lower.rung) - rungs.index(upper.rung)


def move_up(ladder_id: int, winner: Entry, loser: Entry) -> bool:
    """The winner takes the loser's rung and everyone from there down to just
    above the winner moves down one. Only when the winner was below; the
    caller holds the ladder's lock. Three statements that never break the
    unique rung: the rungs between are first made negative (and shifted),
    the winner moves into the free rung, then the negatives turn positive."""
    if winner.rung <= loser.rung:
        return False
    top, bottom = loser.rung, winner.rung
    between = Entry.objects.filter(ladder_id=ladder_id, rung__gte=top, rung__lt=bottom)
    between.update(rung=-F("rung") - 1)
    Entry.objects.filter(pk=winner.pk).update(rung=top)
    Entry.objects.filter(ladder_id=ladder_id, rung__lt=0).update(rung=-F("rung"))
    winner.rung = top
    return True

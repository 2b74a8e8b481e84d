"""The players' standing (their ratings) as the matches show it.

The ratings are the players app's (``players.ratings``, OpenSkill), kept up
to date through ``games.signals``. What a match's pages, rows and emails
show of them (a player's number, what a finished match changed) is lent to
this module by that app when it starts (``lend``), so the match machinery
never imports the app above it.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Protocol

from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext as _

from accounts.refs import PlayerRef


@dataclass(frozen=True)
class RatingWords:
    """What a finished, rated match did to one player's rating, in words."""

    short: str  # "1,538 (+26)", beside a name
    sentence: str  # "Your Nogi rating: 1,512 → 1,538 (+26)"
    # Why the change is large, for one of the player's first rated matches of
    # the game (a provisional rating); empty otherwise.
    why: str = ""


@dataclass(frozen=True)
class Leader:
    """One of a game's best players, as its lobby tile names them."""

    ref: PlayerRef
    display: int
    place: int | None  # None for a provisional player, who has no place yet
    provisional: bool


class Standing(Protocol):
    def rating_of(self, user_id: int, game_key: str) -> int:
        """The number a player shows for a game (a newcomer's when unrated)."""

    def ratings_of(self, wanted: Iterable[tuple[int, str]]) -> dict[tuple[int, str], int]:
        """{(user id, game key): number} for every pair wanted, in one query."""

    def changes_in(self, match) -> dict[int, RatingWords]:
        """{user id: words} of a finished rated match's changes, in one query."""

    def leaders(self, game_keys: Iterable[str], n: int) -> dict[str, list[Leader]]:
        """{game key: its best ranked players, then provisional ones} in one query."""

    def uncounted_note(self, match) -> str:
        """Why a finished rated match changed no rating, in words ("" if it did)."""


_standing: Standing | None = None


def lend(standing: Standing) -> None:
    """The players app lends its ratings (from its ``ready``)."""
    global _standing
    _standing = standing


def _lent() -> Standing:
    if _standing is None:
        raise ImproperlyConfigured("No app lent the players' standing (is 'players' installed?)")
    return _standing


def rating_of(user_id: int, game_key: str) -> int:
    return _lent().rating_of(user_id, game_key)


def ratings_of(wanted: Iterable[tuple[int, str]]) -> dict[tuple[int, str], int]:
    wanted = set(wanted)
    return _lent().ratings_of(wanted) if wanted else {}


def changes_in(match) -> dict[int, RatingWords]:
    """What ``match`` changed of its players' ratings (none unless it is rated)."""
    return _lent().changes_in(match) if match.rated else {}


def leaders(game_keys: Iterable[str], n: int) -> dict[str, list[Leader]]:
    """The top ``n`` of each game: ranked players first, then provisional ones."""
    return _lent().leaders(game_keys, n)


def uncounted_note(match, changes: dict[int, RatingWords]) -> str:
    """Why a finished rated match whose ``changes`` are none changed no
    rating (the same players' results past the limit), or ""."""
    if not match.rated or changes or match.status != "finished":
        return ""
    return _lent().uncounted_note(match)


def abandoned_note(match, seats, changes: dict[int, RatingWords], user_id: int | None) -> str:
    """Why a player's rating did not change in a rated match that changed
    another's, or "": a player who left it (on time or to the bot) had left
    another lately, so only their own loss counted (a mass abandonment,
    docs/ratings.md). Read from the seats and the changes already at hand,
    with no query."""
    if not match.rated or match.status != "finished" or not changes or user_id in changes:
        return ""
    if user_id is None or not any(seat.user_id == user_id for seat in seats):
        return ""
    leaver = next(
        (s for s in seats if s.status in ("timed_out", "bot") and s.user_id in changes), None
    )
    if leaver is None:
        return ""
    return _(
        "No change to your rating: %(name)s left this match after leaving another lately, "
        "and only the first such match counts for their opponents."
    ) % {"name": leaver.player_name}

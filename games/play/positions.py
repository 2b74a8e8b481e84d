"""Positions kept in the shared cache every ``CHECKPOINT_EVERY`` log entries.

The log is append-only, so the position after an entry never changes: kept
once, it serves every later look. The replay keeps those it rebuilds
(games/replay.py); a move keeps the one it makes (``services.submit_action``),
so the match page's highlights of what changed since a player's last look
start from a position at most ``CHECKPOINT_EVERY - 1`` entries back and never
read the whole log.
"""

from __future__ import annotations

from typing import Any

from django.core.cache import cache

CHECKPOINT_EVERY = 10
CHECKPOINT_SECONDS = 7 * 24 * 3600


def key(match, seq: int) -> str:
    """The cache key of the position after entry ``seq`` of ``match``'s log."""
    return f"replay:{match.pk}:{match.rules_version}:{seq}"


def keep(match, seq: int, state: Any) -> None:
    """Keep the position after entry ``seq`` when it is a checkpoint."""
    if seq and seq % CHECKPOINT_EVERY == 0:
        cache.set(key(match, seq), state, CHECKPOINT_SECONDS)


def kept(match, seq: int) -> Any:
    """The kept position after entry ``seq``, or None."""
    return cache.get(key(match, seq))

"""Helpers over plain-JSON game states."""

from __future__ import annotations

from typing import Any


def clone(value: Any) -> Any:
    """A deep copy of plain JSON data (dicts, lists, scalars).

    ``apply`` must never touch its input, so every game works on a copy; this
    is several times faster than ``copy.deepcopy`` on game states, which hold
    nothing but JSON.
    """
    if isinstance(value, dict):
        return {key: clone(item) for key, item in value.items()}
    if isinstance(value, list):
        return [clone(item) for item in value]
    return value

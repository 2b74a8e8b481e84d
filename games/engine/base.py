"""The game contract every Smoki game fulfils.

A game is data plus pure functions over it. The web layer never looks inside a
state: it asks the game who must act (``current_seats``), what they may do
(``legal_actions``), applies an action (``apply``), and renders only what
``view`` returns for the person looking. This module must not import Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol, runtime_checkable

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """An action the rules do not allow now. The message is shown to the player."""

    def __init__(self, message: str):
        super().__init__(message)
        self.message = message


@dataclass(frozen=True)
class Option:
    """A variant or setting chosen when a match is created."""

    key: str
    label: str
    choices: list[tuple[Any, str]]
    default: Any
    help: str = ""

    def validate(self, value: Any) -> Any:
        allowed = [choice for choice, _label in self.choices]
        if value not in allowed:
            raise IllegalAction(f"{self.label}: {value!r} is not one of the choices.")
        return value


@dataclass(frozen=True)
class Result:
    """The outcome of a finished game.

    ``ranks[seat]`` is 1 for the winner(s); tied seats share a rank.
    ``scores[seat]`` is the final score, or None for games without one.
    """

    ranks: list[int]
    scores: list[int | None]
    details: dict[str, Any] = field(default_factory=dict)

    @property
    def winners(self) -> list[int]:
        return [seat for seat, rank in enumerate(self.ranks) if rank == 1]

    def to_json(self) -> dict[str, Any]:
        return {"ranks": list(self.ranks), "scores": list(self.scores), "details": self.details}


@runtime_checkable
class Game(Protocol):
    key: str
    title: str
    rules_version: int
    min_players: int
    max_players: int
    options: list[Option]

    def setup(self, n_players: int, options: dict[str, Any], seed: str) -> State: ...

    def current_seats(self, state: State) -> list[int]: ...

    def legal_actions(self, state: State, seat: int) -> list[Action]: ...

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]: ...

    def view(self, state: State, seat: int | None) -> dict[str, Any]: ...

    def result(self, state: State) -> Result | None: ...


def resolve_options(game: Game, chosen: dict[str, Any] | None) -> dict[str, Any]:
    """Fill in defaults and reject unknown keys or values."""
    chosen = dict(chosen or {})
    known = {option.key: option for option in game.options}
    unknown = set(chosen) - set(known)
    if unknown:
        raise IllegalAction(f"Unknown option(s): {', '.join(sorted(unknown))}.")
    return {key: option.validate(chosen.get(key, option.default)) for key, option in known.items()}


def rank_by_score(keys: list[tuple]) -> list[int]:
    """Competition ranking (1, 1, 3, ...) where a larger key is better."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]

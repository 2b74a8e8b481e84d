"""The game contract every Smoki game fulfils.

A game is data plus pure functions over it. The web layer never looks inside a
state: it asks the game who must act (``current_seats``), what they may do
(``legal_actions``), applies an action (``apply``), and renders only what
``view`` returns for the person looking. This module must not import Django.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from games.engine.i18n import Msg, PluralMsg, _
from games.engine.state import clone

State = dict[str, Any]
Action = dict[str, Any]
Event = dict[str, Any]


class IllegalAction(Exception):
    """An action the rules do not allow now. The message is shown to the player.

    ``message`` is an English text marked with ``engine.i18n._``, with
    ``%(name)s`` placeholders filled from ``params``; the site translates the
    text (and any marked parameter) into the player's language before it
    fills them in. ``.message`` is the English sentence.
    """

    def __init__(self, message: str, **params: Any):
        self.template = message
        self.params = params
        english = message.english(params) if isinstance(message, PluralMsg) else message
        self.message = english % params if params else english
        super().__init__(self.message)


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
            raise IllegalAction(
                _("%(option)s: that is not one of the choices."), option=Msg(self.label)
            )
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


class Game:
    """The base class of every game: what a game must define, and the optional
    hooks with their defaults.

    Required (a game that leaves one out fails on first use):

    - the attributes ``key``, ``title``, ``rules_version``, ``min_players``,
      ``max_players`` and ``options``;
    - ``setup``, ``current_seats``, ``legal_actions``, ``resolve``, ``view``,
      ``result``: the pure rules (``apply``, the same for every game, checks
      an action with the hooks ``is_over``, ``is_turn_of``, ``is_legal`` and
      ``why_illegal`` and has ``resolve`` play it on a copy);
    - ``perturb_secrets``: the conformance kit's way of proving that nothing a
      seat must not know leaks into its pages or its bot's choices;
    - ``sample_secrets``: a guess at the hidden information consistent with
      a seat's view, which the search bot (``engine.search``) plays out.

    Optional hooks, each with a default below that suits a game without the
    feature: ``validate_setup``, ``opening_events``, ``check_invariants``,
    ``public_action``, ``option_matrix``, ``final_details``, ``setup_for`` (with
    ``old_rules_versions``). The site calls them directly; it never probes a
    game for attributes.

    Rules versions: a game whose rules change bumps ``rules_version`` (stored on
    each new match). To keep older matches playing and replaying as they were,
    it lists the older versions in ``old_rules_versions``, records the version
    in the state it sets up, and overrides ``setup_for``; replays and the
    fairness check set a match up with ``setup_for(match.rules_version, ...)``.
    """

    key: str
    title: str
    rules_version: int
    min_players: int
    max_players: int
    options: list[Option] = []
    #: Older rules versions whose matches still play and replay as they were.
    old_rules_versions: tuple[int, ...] = ()
    #: Whether ``resolve`` may play move after move on one state: it keeps
    #: nothing of a state's object outside it (no cache by identity) and puts
    #: nothing of the action's into it. The strong bot's rollouts then copy the
    #: state once, not at every move (``games.engine.search.rollout``).
    resolves_in_place: bool = False

    # Required -------------------------------------------------------------------------------

    def setup(self, n_players: int, options: dict[str, Any], seed: str) -> State:
        raise NotImplementedError

    def current_seats(self, state: State) -> list[int]:
        """The seats that must act now; ``[]`` once the game is over."""
        raise NotImplementedError

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        """Every legal action of ``seat`` now (a finite list, ``[]`` if none)."""
        raise NotImplementedError

    def apply(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """The new state and the events, without touching ``state``; raises ``IllegalAction``.

        A template method, the same for every game, so no game can forget a
        check or mutate its input: the game must not be over (``is_over``),
        ``seat`` must be one it waits on (``is_turn_of``), the action must be
        legal (``is_legal``, else the game's reason, ``why_illegal``); then the
        rules play it on a copy (``copy_state``, ``resolve``). A game overrides
        the hooks, not this.
        """
        if self.is_over(state):
            raise IllegalAction(_("The game is over."))
        if not self.is_turn_of(state, seat):
            raise IllegalAction(_("It is not your turn."))
        if not self.is_legal(state, seat, action):
            raise self.why_illegal(state, seat, action)
        new = self.copy_state(state)
        return new, self.resolve(new, seat, action)

    def apply_legal(self, state: State, seat: int, action: Action) -> tuple[State, list[Event]]:
        """``apply`` for an action just taken from ``legal_actions(state, seat)``, by a
        caller that knows it is legal: the same new state and events, without
        ``apply``'s checks (which would list the legal actions again). The strong
        bot's rollouts play every move this way; a move from outside never does."""
        new = self.copy_state(state)
        return new, self.resolve(new, seat, action)

    def resolve(self, state: State, seat: int, action: Action) -> list[Event]:
        """Play a legal ``action`` of ``seat`` on ``state`` (a copy ``apply`` owns,
        changed in place) and return the events: the game's own rules only,
        every check made already."""
        raise NotImplementedError

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        """What ``seat`` may see (``None``: a spectator). Nothing else reaches a page."""
        raise NotImplementedError

    def result(self, state: State) -> Result | None:
        raise NotImplementedError

    def perturb_secrets(self, state: State, seat: int | None, rng: Any) -> State:
        """A copy of ``state`` in which everything ``seat`` must not know is changed.

        Other seats' hands, deck orders, hidden values and the PRNG state are
        reshuffled or replaced (drawing from ``rng``, an ``engine.rng.Rng``),
        while everything ``seat`` may know stays the same and the position
        stays legal. ``seat`` is None for a spectator. Pages, fragments,
        emails and the seat's bot must not change when this is applied.
        """
        raise NotImplementedError

    def sample_secrets(self, state: State, seat: int, rng: Any) -> State:
        """A copy of ``state`` with what ``seat`` cannot see dealt anew at random.

        Close to ``perturb_secrets``, with two promises more, both checked by
        the conformance kit: ``view(sample, seat) == view(state, seat)`` (and
        the same legal actions), and the sample depends only on what ``seat``
        may know and on ``rng`` (each hidden pool is put in a canonical order,
        e.g. sorted, before it is shuffled), so two states that look the same
        to the seat give the same sample for the same ``rng``. The PRNG state
        (future dice and draws) is re-seeded from ``rng``.
        """
        raise NotImplementedError

    # Hooks of ``apply``'s checks, with defaults --------------------------------------------

    def is_over(self, state: State) -> bool:
        """Whether the game has ended (``apply`` then refuses every action).

        The default asks ``result``; a game with a flag in its state reads it."""
        return self.result(state) is not None

    def is_turn_of(self, state: State, seat: Any) -> bool:
        """Whether ``seat`` (any value a caller passes) is one the game waits on now."""
        return type(seat) is int and seat in self.current_seats(state)

    def is_legal(self, state: State, seat: int, action: Any) -> bool:
        """Whether ``action`` (any value a caller passes) is legal for ``seat``,
        whose turn it is. The default looks it up in ``legal_actions``; a game
        may answer faster for its commonest actions."""
        return action in self.legal_actions(state, seat)

    def why_illegal(self, state: State, seat: int, action: Any) -> IllegalAction:
        """The refusal of an action known to be illegal, with a reason a player
        understands (``apply`` raises it). Games say what exactly is wrong."""
        return IllegalAction(_("You cannot do that now."))

    def copy_state(self, state: State) -> State:
        """The copy ``resolve`` changes, so ``apply`` never touches its input."""
        return clone(state)

    # Optional hooks -------------------------------------------------------------------------

    def setup_for(
        self, rules_version: int, n_players: int, options: dict[str, Any], seed: str
    ) -> State:
        """``setup`` for a match created under ``rules_version``.

        The default has one version: ``setup``. A game with ``old_rules_versions``
        sets up a state that plays by the version asked for.
        """
        return self.setup(n_players, options, seed)

    def knows_rules_version(self, rules_version: int) -> bool:
        """Whether a match created under ``rules_version`` replays under these rules."""
        return rules_version == self.rules_version or rules_version in self.old_rules_versions

    def validate_setup(self, n_players: Any, options: dict[str, Any] | None) -> str | None:
        """Why this player count and these options cannot be played, or None.

        The default checks the player count and the options; games with
        combinations that depend on the count (Drakon's team play) extend it.
        """
        if (
            not isinstance(n_players, int)
            or isinstance(n_players, bool)
            or not self.min_players <= n_players <= self.max_players
        ):
            return _("That number of players cannot play this game.")
        try:
            resolve_options(self, dict(options or {}))
        except IllegalAction as error:
            return error.message
        return None

    def opening_events(self, state: State) -> list[Event]:
        """The events of what ``setup`` did by itself (the first deal or roll), for the log.

        ``setup`` returns only a state; the site logs these events as the
        match's opening entry (seq 0), and verification checks them.
        """
        return []

    def check_invariants(self, state: State) -> None:
        """Raise ``AssertionError`` when ``state`` breaks an invariant (for the harness)."""

    def public_action(self, action: Action) -> Action:
        """What anyone may read of ``action`` while the match is in play.

        Actions that carry a secret choice (a tile slipped under the pile, a
        coin taken face down) return a copy without it; the full action is
        published with the seed when the match ends.
        """
        return action

    def final_details(self, state: State) -> dict[str, Any]:
        """What the end banner needs of the position to name the side that won.

        The site adds these to the details of every finished match's result,
        including a result it decides itself (a resignation, a loss on time, a
        moderator's ranks), where ``result`` has nothing to say. Drako names
        the dragon's seat, so its banner can say whether the dragon or the
        dwarves won. The default is nothing.
        """
        return {}

    def demo_setup(self) -> tuple[int, dict[str, Any]]:
        """The player count and options of this game's match in the demo data."""
        return self.min_players, {}

    def option_matrix(self, n_players: int) -> list[dict[str, Any]]:
        """Every combination of option values playable with ``n_players``."""
        combos: list[dict[str, Any]] = [{}]
        for option in self.options:
            combos = [
                {**combo, option.key: value} for combo in combos for value, _label in option.choices
            ]
        return [combo for combo in combos if self.validate_setup(n_players, combo) is None]


def resolve_options(game: Game, chosen: dict[str, Any] | None) -> dict[str, Any]:
    """Fill in defaults and reject unknown keys or values."""
    chosen = dict(chosen or {})
    known = {option.key: option for option in game.options}
    unknown = set(chosen) - set(known)
    if unknown:
        raise IllegalAction(_("Unknown option(s): %(names)s."), names=", ".join(sorted(unknown)))
    return {key: option.validate(chosen.get(key, option.default)) for key, option in known.items()}


def rank_by_score(keys: list[tuple]) -> list[int]:
    """Competition ranking (1, 1, 3, ...) where a larger key is better."""
    return [1 + sum(1 for other in keys if other > mine) for mine in keys]

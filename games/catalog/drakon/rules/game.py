"""The Drakon game object: setup, queries, ``apply`` and what the public log hides."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from games.catalog.drakon import components as C
from games.catalog.drakon.rules.decisions import HANDLERS
from games.catalog.drakon.rules.invariants import check_invariants
from games.catalog.drakon.rules.lair import ENTRANCE_KEY, share_lair
from games.catalog.drakon.rules.legal import LEGAL, explain_refusal, place_refusal, typed_action
from games.catalog.drakon.rules.secrets import perturb_secrets, sample_secrets
from games.catalog.drakon.rules.stack import run_tasks
from games.catalog.drakon.rules.state import (
    ACTION,
    BOOL_CHOICES,
    CHOOSE_HERO,
    DEAL,
    copy_state,
    drawn_event,
    edition_of,
    gold_of,
    is_seat,
    new_state,
    pool_count,
    pool_of,
    private_events,
    teams,
)
from games.catalog.drakon.rules.view import build_view
from games.engine.base import (
    Action,
    Event,
    Game,
    IllegalAction,
    Option,
    Result,
    State,
    rank_by_score,
    resolve_options,
)
from games.engine.i18n import _
from games.engine.rng import Rng

# The game -------------------------------------------------------------------------------------


def classic_options() -> list[Option]:
    """The first edition's two optional rules (B-7, B-8); it has no Short game nor Team play."""
    return [
        Option(
            key="heroes",
            label=_("Heroes!"),
            choices=BOOL_CHOICES,
            default=False,
            help=_("Each hero has a once-per-game ability; heroes are dealt at random."),
        ),
        Option(
            key="escape",
            label=_("Escape from Drakon's lair"),
            choices=BOOL_CHOICES,
            default=False,
            help=_(
                "Win by reaching a Master Key or Magical Vortex chamber with 4 coins or more "
                "(instead of collecting 5 coins)."
            ),
        ),
    ]


def later_options() -> list[Option]:
    """The later edition's optional rules: Heroes!, Escape, Short game, Team play."""
    return [
        Option(
            key="heroes",
            label=_("Heroes!"),
            choices=BOOL_CHOICES,
            default=False,
            help=_("Each hero has a once-per-game ability; heroes are chosen in turn order."),
        ),
        Option(
            key="escape",
            label=_("Escape from Drakon's lair"),
            choices=BOOL_CHOICES,
            default=False,
            help=_(
                "Win by entering an Escape or Portal chamber with 8 gold or more "
                "(16 for a team). Cannot be combined with Short game."
            ),
        ),
        Option(
            key="short_game",
            label=_("Short game"),
            choices=BOOL_CHOICES,
            default=False,
            help=_("7 gold wins (14 for a team)."),
        ),
        Option(
            key="team_play",
            label=_("Team play"),
            choices=BOOL_CHOICES,
            default=False,
            help=_(
                "4 or 6 players in teams of two sharing their coins: seats 1 and 3 "
                "against 2 and 4, or 1+4, 2+5, 3+6. A team needs 20 gold."
            ),
        ),
    ]


class DrakonGame(Game):
    """The Drakon game object: see ``games.engine.base.Game`` for the contract.

    ``edition`` selects the component and rule data (``components.EDITIONS``);
    the package registers both editions (``drakon`` and ``drakon_classic``).
    """

    #: 2: a hero meets Drakon when its turn ends in her chamber, and the no-progress
    #: guards wait until no coin can change hands (later edition; rulings 6, 20).
    rules_version = 2
    #: Matches set up under these versions keep playing and replaying as then.
    old_rules_versions: tuple[int, ...] = (1,)

    def __init__(
        self, edition: str = "4e", key: str = "drakon", title: str = _("Drakon (fourth edition)")
    ):
        self.edition = C.EDITIONS[edition]
        if edition != "4e":  # the corrections are the later edition's; the first has one version
            self.rules_version = 1
            self.old_rules_versions = ()
        self.key = key
        self.title = title
        self.min_players = self.edition.min_players
        self.max_players = self.edition.max_players
        self.options = classic_options() if edition == "1e" else later_options()

    # Setup ----------------------------------------------------------------------------------

    def validate_setup(self, n_players: Any, options: Mapping[str, Any] | None) -> str | None:
        """An error message for a player count and options that cannot be played, or None.

        The match service should call this when a match is created and again
        when it starts (the seat count may change in between).
        """
        if (
            not isinstance(n_players, int)
            or isinstance(n_players, bool)
            or not self.min_players <= n_players <= self.max_players
        ):
            return _("Drakon needs 2 to 6 players.")
        try:
            resolved = resolve_options(self, dict(options or {}))
        except IllegalAction as error:
            return error.message
        if resolved.get("team_play") and n_players not in self.edition.team_sizes:
            return _("Team play needs 4 or 6 players.")
        if resolved["escape"] and resolved.get("short_game"):
            return _("Short game and Escape from Drakon's lair change the same goal: choose one.")
        return None

    def setup(self, n_players: int, options: dict[str, Any], seed: str) -> State:
        return self.setup_for(self.rules_version, n_players, options, seed)

    def setup_for(
        self, rules_version: int, n_players: int, options: dict[str, Any], seed: str
    ) -> State:
        """A-3: Entrance at (0,0), shuffled pile, mixed hoard, random first player, heroes, hands.

        With Heroes! each seat chooses a hero in turn order (a decision each);
        hands are dealt once the heroes are chosen, as in the rulebook. The state
        records ``rules_version`` from version 2 on (``state.rules_version_of``).
        """
        error = self.validate_setup(n_players, options)
        if error:
            raise IllegalAction(error)
        options = resolve_options(self, options)
        edition = self.edition
        rng = Rng.from_seed(seed)
        stack = rng.shuffled(list(range(1, sum(count for _r, _p, count in edition.tiles))))
        hoard = rng.shuffled(C.coin_list(edition))
        first_seat = rng.below(n_players)
        order = [(first_seat + i) % n_players for i in range(n_players)]
        hero_names: list[str | None] = [None] * n_players
        pending: list[dict[str, Any]] = [{"kind": DEAL}]
        if options["heroes"] and edition.random_heroes:  # B-7: dealt at random
            for seat, name in zip(order, rng.shuffled(list(edition.heroes)), strict=False):
                hero_names[seat] = name
        elif options["heroes"]:
            pending.extend({"kind": CHOOSE_HERO, "seat": seat} for seat in reversed(order))
        else:
            for index, seat in enumerate(order):
                hero_names[seat] = list(edition.heroes)[index]
        state = new_state(
            edition=edition.key,
            n_players=n_players,
            options=options,
            first_seat=first_seat,
            tiles=None,
            board={ENTRANCE_KEY: [0, 0]},
            stack=stack,
            hands=[[] for _ in range(n_players)],
            coins=[[] for _ in range(pool_count(n_players, options))],
            hoard=hoard,
            heroes=[ENTRANCE_KEY] * n_players,
            hero_names=hero_names,
            pending=pending,
            start_coins=[] if edition.start_collects else None,
            rules_version=rules_version,
        )
        state["rng"] = rng.dump()
        run_tasks(state, [])
        return state

    def opening_events(self, state: State) -> list[Event]:
        """The events ``setup`` produced, rebuilt from a fresh setup state for the log.

        ``setup`` returns only a state. Without Heroes! it already dealt the
        hands and started the first turn; with Heroes! nothing has happened
        yet (the first seat is choosing a hero).
        """
        if state["turn"] != 1 or state["abilities_used"] != [False] * state["n_players"]:
            return []
        if state["options"]["heroes"] and not edition_of(state).random_heroes:
            return []
        events: list[Event] = []
        n = state["n_players"]
        if state["options"]["heroes"]:
            for offset in range(n):
                seat = (state["first_seat"] + offset) % n
                events.append(
                    {"type": "hero_dealt", "seat": seat, "hero": state["hero_names"][seat]}
                )
        for offset in range(n):
            seat = (state["first_seat"] + offset) % n
            drawn = list(state["hands"][seat])
            events.append({"type": "hand_dealt", "seat": seat, "count": len(drawn)})
            events.extend(private_events(state, [seat], drawn_event(state, seat, drawn)))
        events.append({"type": "turn_started", "seat": state["first_seat"], "turn": 1})
        return events

    # Queries --------------------------------------------------------------------------------

    def current_seats(self, state: State) -> list[int]:
        if state["over"] or not state["pending"]:
            return []
        return [state["pending"][-1]["seat"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["over"] or not is_seat(state, seat):
            return []
        task = state["pending"][-1]
        if task.get("seat") != seat:
            return []
        return LEGAL[task["kind"]](state, task)

    def result(self, state: State) -> Result | None:
        """A-13, D-12: the winner(s) first, then every other seat by gold; ties share."""
        if not state["over"]:
            return None
        n = state["n_players"]
        winners = set(state["end"]["winners"])
        gold = [gold_of(state, seat) for seat in range(n)]
        ranks = rank_by_score([(seat in winners, gold[seat]) for seat in range(n)])
        details = {
            "reason": state["end"]["reason"],
            "winners": sorted(winners),
            "gold": gold,
            "coins": [sorted(state["coins"][pool_of(state, seat)]) for seat in range(n)],
            "teams": teams(state),
        }
        return Result(ranks=ranks, scores=gold, details=details)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return build_view(self, state, seat)

    # Acting ---------------------------------------------------------------------------------

    def is_over(self, state: State) -> bool:
        return state["over"]

    def is_turn_of(self, state: State, seat: Any) -> bool:
        """A seat of the game while a decision waits (whose decision it is,
        ``why_illegal`` says: "It is not your turn to decide.")."""
        return is_seat(state, seat) and bool(state["pending"])

    def is_legal(self, state: State, seat: int, action: Any) -> bool:
        """The decision on top of the stack is the seat's, and ``action`` answers it."""
        return self._refusal(state, seat, action) is None

    def why_illegal(self, state: State, seat: int, action: Any) -> IllegalAction:
        refusal = self._refusal(state, seat, action)
        assert refusal is not None, "why_illegal is asked only of an illegal action"
        return refusal

    def _refusal(self, state: State, seat: int, action: Any) -> IllegalAction | None:
        """None for a legal answer to the decision on top, else the refusal
        with a readable reason."""
        task = state["pending"][-1]
        if task.get("seat") != seat:
            return IllegalAction(_("It is not your turn to decide."))
        if not isinstance(action, dict) or not isinstance(action.get("type"), str):
            return IllegalAction(_("That is not an action."))
        if task["kind"] == ACTION and action.get("type") == "place":
            return place_refusal(state, seat, action)
        wanted = typed_action(action)
        if wanted is None or wanted not in {
            typed_action(a) for a in LEGAL[task["kind"]](state, task)
        }:
            return IllegalAction(explain_refusal(state, task, action))
        return None

    def copy_state(self, state: State) -> State:
        new = copy_state(state)
        share_lair(state, new)
        return new

    def resolve(self, state: State, seat: int, action: Action) -> list[Event]:
        """Answer the decision on top of the stack, then run until the next decision."""
        task = state["pending"].pop()
        events: list[Event] = []
        HANDLERS[task["kind"]](state, task, action, events)
        run_tasks(state, events)
        return events

    def perturb_secrets(self, state: State, seat: int | None, rng: Rng) -> State:
        """Other hands, the pile, hidden coin values and the PRNG changed (``rules.secrets``)."""
        return perturb_secrets(state, seat, rng)

    def sample_secrets(self, state: State, seat: int, rng: Rng) -> State:
        """Other hands, the pile and hidden coin values dealt anew from sorted pools."""
        return sample_secrets(state, seat, rng)

    def check_invariants(self, state: State) -> None:
        check_invariants(state)

    def public_action(self, action: Action) -> Action:
        """While a match is in play, hide the tile a Warrior slips under the pile
        (from a secret hand) and the coin a Thief gives the hoard (a secret value)."""
        secret = _SECRET_ACTION_FIELDS.get((action.get("type"), action.get("hero")), ())
        hidden = [key for key in secret if key in action]
        if not hidden:
            return action
        shown = {key: value for key, value in action.items() if key not in hidden}
        shown["hidden"] = hidden
        return shown


#: Fields of actions that carry a secret choice: (action type, hero) -> field names.
_SECRET_ACTION_FIELDS: dict[tuple[Any, Any], tuple[str, ...]] = {
    ("ability", "warrior"): ("tile",),
    ("warrior_tile", None): ("tile",),
    ("ability", "thief"): ("coin",),
    ("ability", "dwarf"): ("tile",),
}


GAME = DrakonGame()
GAME_CLASSIC = DrakonGame("1e", "drakon_classic", _("Drakon (first edition)"))
GAMES_BY_EDITION = {"4e": GAME, "1e": GAME_CLASSIC}

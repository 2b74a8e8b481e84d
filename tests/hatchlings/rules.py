"""Pure rules of Hatchlings (see README.md beside this file)."""

from __future__ import annotations

from typing import Any

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

EGGS = [1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6]
HAND = 2


def _copy(state: State) -> State:
    return {
        **state,
        "hands": [list(hand) for hand in state["hands"]],
        "clutch": list(state["clutch"]),
        "nest": [list(entry) for entry in state["nest"]],
        "scores": list(state["scores"]),
        "buried": list(state["buried"]),
    }


class HatchlingsGame(Game):
    key = "hatchlings"
    title = "Hatchlings"
    rules_version = 1
    min_players = 2
    max_players = 2
    options = [
        Option(
            key="first",
            label=_("Who starts"),
            choices=[("host", _("The host")), ("guest", _("The guest"))],
            default="host",
        )
    ]

    def setup(self, n_players: int, options: dict[str, Any], seed: str) -> State:
        if n_players != 2:
            raise IllegalAction(_("Hatchlings is for two players."))
        options = resolve_options(self, options)
        rng = Rng.from_seed(seed)
        clutch = rng.shuffled(EGGS)
        hands = [clutch[:HAND], clutch[HAND : 2 * HAND]]
        return {
            "options": options,
            "hands": hands,
            "clutch": clutch[2 * HAND :],
            "nest": [],
            "scores": [0, 0],
            "buried": [False, False],
            "active": 0 if options["first"] == "host" else 1,
            "over": False,
            "rng": rng.dump(),
        }

    def opening_events(self, state: State) -> list[Event]:
        events: list[Event] = []
        for seat, hand in enumerate(state["hands"]):
            events.append({"type": "dealt", "seat": seat, "count": len(hand)})
            events.append(
                {"type": "dealt_eggs", "seat": seat, "eggs": list(hand), "private_to": seat}
            )
        return events

    def current_seats(self, state: State) -> list[int]:
        return [] if state["over"] else [state["active"]]

    def legal_actions(self, state: State, seat: int) -> list[Action]:
        if state["over"] or seat != state["active"]:
            return []
        eggs = sorted(set(state["hands"][seat]))
        actions = [{"type": "hatch", "egg": egg} for egg in eggs]
        if not state["buried"][seat]:
            actions += [{"type": "bury", "egg": egg} for egg in eggs]
        return actions

    def is_over(self, state: State) -> bool:
        return state["over"]

    def why_illegal(self, state: State, seat: int, action: Any) -> IllegalAction:
        return IllegalAction(_("You cannot do that now: hatch or bury an egg from your hand."))

    def resolve(self, new: State, seat: int, action: Action) -> list[Event]:
        events: list[Event] = []
        egg = action["egg"]
        new["hands"][seat].remove(egg)
        if action["type"] == "hatch":
            new["nest"].append([seat, egg])
            new["scores"][seat] += egg
            events.append({"type": "hatched", "seat": seat, "egg": egg})
        else:
            new["clutch"].append(egg)
            new["buried"][seat] = True
            events.append({"type": "buried", "seat": seat})
        if new["clutch"]:
            drawn = new["clutch"].pop(0)
            new["hands"][seat].append(drawn)
            events.append({"type": "drew", "seat": seat})
            events.append({"type": "drew_egg", "seat": seat, "egg": drawn, "private_to": seat})
        other = 1 - seat
        if not new["hands"][0] and not new["hands"][1]:
            new["over"] = True
            events.append({"type": "game_over", "scores": list(new["scores"])})
        elif new["hands"][other]:
            new["active"] = other
        return events

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return {
            "nest": [list(entry) for entry in state["nest"]],
            "scores": list(state["scores"]),
            "hand_counts": [len(hand) for hand in state["hands"]],
            "clutch_count": len(state["clutch"]),
            "buried": list(state["buried"]),
            "active": None if state["over"] else state["active"],
            "over": state["over"],
            "my_hand": sorted(state["hands"][seat]) if seat is not None else None,
            "hands_at_end": [sorted(h) for h in state["hands"]] if state["over"] else None,
        }

    def result(self, state: State) -> Result | None:
        if not state["over"]:
            return None
        scores = list(state["scores"])
        return Result(ranks=rank_by_score([(s,) for s in scores]), scores=scores)

    def perturb_secrets(self, state: State, seat: int | None, rng: Rng) -> State:
        """Reshuffle every egg ``seat`` cannot see (other hands and the clutch)."""
        new = _copy(state)
        hidden_seats = [s for s in range(2) if s != seat]
        pool = [egg for s in hidden_seats for egg in new["hands"][s]] + new["clutch"]
        pool = rng.shuffled(pool)
        for s in hidden_seats:
            count = len(new["hands"][s])
            new["hands"][s], pool = pool[:count], pool[count:]
        new["clutch"] = pool
        new["rng"] = f"{rng.next64():016x}"
        return new

    def sample_secrets(self, state: State, seat: int, rng: Rng) -> State:
        """Deal the unseen eggs (sorted) anew into the other hand and the clutch."""
        new = _copy(state)
        hidden_seats = [s for s in range(2) if s != seat]
        pool = sorted([egg for s in hidden_seats for egg in new["hands"][s]] + new["clutch"])
        pool = rng.shuffled(pool)
        for s in hidden_seats:
            count = len(new["hands"][s])
            new["hands"][s], pool = pool[:count], pool[count:]
        new["clutch"] = pool
        new["rng"] = f"{rng.next64():016x}"
        return new

    def public_action(self, action: Action) -> Action:
        """A buried egg goes face down: which egg stays secret until the end."""
        if action.get("type") == "bury":
            return {"type": "bury", "hidden": ["egg"]}
        return action

    def check_invariants(self, state: State) -> None:
        eggs = (
            [e for h in state["hands"] for e in h]
            + state["clutch"]
            + [e for _s, e in state["nest"]]
        )
        assert sorted(eggs) == sorted(EGGS), "eggs not conserved"
        assert all(len(hand) <= HAND for hand in state["hands"])


GAME = HatchlingsGame()

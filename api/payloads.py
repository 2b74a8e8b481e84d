"""The API's JSON about matches, built from what the match page uses: the
seat's view from ``presenters.seat_view`` (the game's ``view`` for the seat
its player sees, ``Seat.sight``), the legal actions from the engine, the log
lines from ``move_log.log_lines``. Nothing here reads the raw state for a
viewer but through ``view``, so no other seat's secret can reach the JSON.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

from games.engine import registry
from games.models import Match, MatchStatus, Move, Seat
from games.panel import move_log, presenters
from games.play.access import seat_of

PAGE = 50


def action_id(action: Any) -> str:
    """A stable id for an action: the same action has the same id in every
    request and on every machine (a digest of its canonical JSON)."""
    text = json.dumps(action, sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def moment(value) -> str | None:
    return value.isoformat() if value else None


def seats(match: Match) -> list[dict]:
    return [
        {
            "index": seat.index,
            "player": seat.user.username if seat.user_id else None,
            "name": seat.player_name,
            "bot": seat.is_bot,
            "status": seat.status,
            "rank": seat.rank,
            "score": seat.score,
        }
        for seat in sorted(match.seats.all(), key=lambda s: s.index)
    ]


def summary(match: Match, me: Seat | None = None) -> dict:
    """A match in a list: no state at all."""
    return {
        "id": match.pk,
        "game": match.game_key,
        "status": match.status,
        "version": match.version,
        "deadline": moment(match.deadline),
        "my_seat": me.index if me else None,
        "seats": seats(match),
    }


def legal(match: Match, me: Seat | None) -> list[dict]:
    """My legal actions, each with its id: only while it is my turn."""
    if me is None or match.status != MatchStatus.ACTIVE or me.status != "playing":
        return []
    game = registry.get(match.game_key)
    if me.index not in match.seats_to_move(game):
        return []
    return [{"id": action_id(a), "action": a} for a in game.legal_actions(match.state, me.index)]


def detail(match: Match, user) -> dict:
    """Everything a seat (or a spectator) may know of a match."""
    game = registry.get(match.game_key)
    me = seat_of(match, user)
    sight = me.sight if me else None
    data = summary(match, me)
    names = [seat["name"] for seat in data["seats"]]
    view = None
    if match.state is not None:
        view = presenters.seat_view(game, match.state, sight, names, match.version)
    data.update(
        rules_version=match.rules_version,
        options=match.options,
        time_per_move_seconds=int(match.time_per_move.total_seconds()),
        to_move=match.seats_to_move(game) if match.status == MatchStatus.ACTIVE else [],
        view=view,
        legal_actions=legal(match, me),
        result=match.result if match.is_over else None,
        seed=match.seed if match.seed_revealed else None,
        seed_hash=match.seed_hash,
    )
    return data


def log_page(match: Match, user, page: int) -> dict:
    """The log as my seat reads it, ``PAGE`` entries a page, oldest first."""
    me = seat_of(match, user)
    names = [seat.player_name for seat in sorted(match.seats.all(), key=lambda s: s.index)]
    start = (page - 1) * PAGE
    moves = list(Move.objects.filter(match=match).order_by("seq")[start : start + PAGE + 1])
    lines = move_log.log_lines(match, names, me.sight if me else None, moves[:PAGE])
    return {
        "page": page,
        "more": len(moves) > PAGE,
        "entries": [
            {
                "seq": line.seq,
                "who": line.who,
                "actor_kind": line.actor_kind,
                "at": moment(line.created_at),
                "lines": line.sentences,
            }
            for line in lines
        ],
    }

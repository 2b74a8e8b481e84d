"""The move log as a viewer may read it: each move's events in the game's
words, private events only to their seat, moderators' and players' own
out-of-game entries in words players understand, kept per move in the
shared cache; the full log, the public JSON log, and the lines an htmx
move's answer adds to the log its page keeps."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Any

from django.core.cache import cache
from django.utils.translation import get_language
from django.utils.translation import gettext as _

from games.engine import registry
from games.engine.replay import MODERATION, is_moderation
from games.models import (
    ActorKind,
    Match,
    Move,
)
from games.panel import presenters
from games.play.access import seat_of

LOG_TAIL = 30


@dataclass
class LogLine:
    seq: int
    who: str  # the name shown before the sentences ("" when they name the actor)
    actor_kind: str
    created_at: Any
    sentences: list[str] = field(default_factory=list)


def visible_events(events: list[dict], viewer: int | None) -> list[dict]:
    return [e for e in events if e.get("private_to") is None or e.get("private_to") == viewer]


def describe_moderation(event: dict, names: list[str]) -> str:
    """A moderator's or a player's own out-of-game entry in the log, in words players
    understand. ``names`` are the players' own names (``Seat.player_name``): the entry
    tells what the player did or what was done to their seat, not who plays it now."""
    op = event.get("op")
    seat = event.get("seat")
    who = names[seat] if isinstance(seat, int) and 0 <= seat < len(names) else ""
    sentences = {
        "abort": _("A moderator aborted the match."),
        "extend": _("A moderator extended the deadline by %(h)s hours.")
        % {"h": event.get("hours")},
        "replace_with_bot": _("A moderator gave %(who)s's seat to a bot.") % {"who": who},
        "reinstate": _("A moderator gave %(who)s's seat back to them.") % {"who": who},
        "adjudicate": _("A moderator decided the result."),
        "correct": _("A moderator corrected the result."),
        "undo": _("A moderator took back the last %(n)s moves.") % {"n": event.get("count")},
        "resign": {
            "bot": _("%(who)s resigned; a bot plays on."),
            "loss": _("%(who)s resigned and lost the match."),
            "aborted": _(
                "%(who)s resigned before each player had moved: the match is aborted "
                "and no rating changes."
            ),
        }.get(event.get("then"), _("%(who)s resigned."))
        % {"who": who},
        "early_abort": {
            "deactivated": _(
                "A moderator closed %(who)s's account before each player had moved: "
                "the match is aborted and no rating changes."
            ),
        }.get(
            event.get("ended"),
            _(
                "%(who)s ran out of time before each player had moved: the match is "
                "aborted and no rating changes."
            ),
        )
        % {"who": who},
        "agreed_undo": _("%(who)s took back their last move, as the other players agreed.")
        % {"who": who},
    }
    return str(sentences.get(op, _("A moderator changed the match.")))


def _log_who(move: Move, names: list[str], sentences_name_the_actor: bool) -> str:
    """Who the log line is about, or "" when the game's sentences say it."""
    if move.actor_kind == ActorKind.GAME:
        return str(_("Setup"))
    if move.seat is None or move.seat >= len(names):
        return str(_("Moderator"))
    if move.actor_kind == ActorKind.PLAYER:
        if is_moderation(move.action):
            return ""  # resigning or an agreed undo: the sentence names the player
        return "" if sentences_name_the_actor else names[move.seat]
    label = ActorKind(move.actor_kind).label
    if sentences_name_the_actor:
        # "Bot 2 placed…" names the seat already: only who made the move
        # for it is added, not the name again ("(bot) Bot 2 placed…").
        return f"({label})"
    return f"{names[move.seat]} ({label})"


LOG_CACHE_SECONDS = 6 * 3600


def log_lines(
    match: Match, names: list[str], viewer: int | None, moves, new: bool = False
) -> list[LogLine]:
    """The log as ``viewer`` may read it, in the active language.

    ``names`` are the players' own names (``Seat.player_name``): a line tells
    what the player did then, so a seat a bot took over later is not called
    "(bot)" in the lines before; the bot's own moves say so in their "who".

    A move's row never changes (the log is append-only), so its words for a
    given viewer, language and seat names are kept in the shared cache: the
    panel's last 30 lines are described once, not again on every move and
    poll. The key holds the viewer's seat, so no seat is ever shown words
    made from another seat's private events. ``new``: rows this request just
    wrote, whose words no one has kept yet (they are kept, not looked up).
    """
    presenter = presenters.get(match.game_key)
    moves = list(moves)
    names_tag = hashlib.sha256("\x1f".join(names).encode()).hexdigest()[:16]
    prefix = f"log:{match.pk}:{viewer}:{get_language()}:{names_tag}:"
    found = cache.get_many([f"{prefix}{move.seq}" for move in moves]) if moves and not new else {}
    fresh = {}
    lines = []
    for move in moves:
        key = f"{prefix}{move.seq}"
        words = found.get(key)
        if words is None:
            sentences = []
            for event in visible_events(move.events, viewer):
                if event.get("type") == MODERATION:
                    sentences.append(describe_moderation(event, names))
                else:
                    sentences.append(str(presenter.describe_event(event, names)))
            words = fresh[key] = (
                _log_who(move, names, presenter.SENTENCES_NAME_THE_ACTOR),
                sentences,
            )
        lines.append(
            LogLine(
                seq=move.seq,
                who=words[0],
                actor_kind=move.actor_kind,
                created_at=move.created_at,
                sentences=list(words[1]),
            )
        )
    if fresh:
        cache.set_many(fresh, LOG_CACHE_SECONDS)
    return lines


LOG_SHOWN_HEADER = "Smoki-Log"


def log_answer(shown: str | None, move: Move) -> list[Move] | None:
    """The rows to add to the log of the page that posted ``move``, or None
    for the whole log.

    ``shown`` is what the page sends in its ``Smoki-Log`` header (htmx sends
    it from the panel's ``hx-headers``): the version whose log it shows. When
    that is the version just before ``move`` and ``move`` is the match's last
    entry, the page's log lacks exactly ``move``'s lines. Anything else (no
    header, a forged or stale one, a move that wrote more than one entry)
    draws the whole log. The lines are the viewer's own either way, so a
    forged header changes only what that page shows."""
    if shown is None or not shown.isascii() or not shown.isdigit() or len(shown) > 12:
        return None
    if int(shown) != move.seq - 1 or move.match.version != move.seq:
        return None
    return [move]


def full_log(match: Match, user) -> list[LogLine]:
    me = seat_of(match, user)
    names = [seat.player_name for seat in sorted(match.seats.all(), key=lambda s: s.index)]
    moves = Move.objects.filter(match=match).order_by("seq")
    return log_lines(match, names, me.sight if me else None, moves)


def public_log(match: Match) -> dict[str, Any]:
    """What anyone may download: the actions, never the events (which may hold
    private details); the seed only once the match is over. While the match is
    in play each action is shown as the game's ``public_action`` makes it, so
    a secret choice carried by an action (a tile slipped under the pile) stays
    secret until the seed is revealed."""
    game = registry.get(match.game_key)
    reveal = match.seed_revealed

    def shown(action):
        if reveal or not isinstance(action, dict) or action.get("type", "").startswith("_"):
            return action
        return game.public_action(action)

    return {
        "match": match.pk,
        "game": match.game_key,
        "rules_version": match.rules_version,
        "options": match.options,
        "n_seats": match.n_seats,
        "seed_sha256": match.seed_hash,
        "seed": match.seed if match.seed_revealed else None,
        "status": match.status,
        "moves": [
            {"seq": seq, "seat": seat, "action": shown(action)}
            for seq, seat, action in match.moves.order_by("seq").values_list(
                "seq", "seat", "action"
            )
        ],
    }

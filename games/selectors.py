"""Reads: what a given person may see of matches, computed, never trusted.

Nothing but a game's ``view`` output for the viewer's own seat reaches a
template; private events are filtered here, per viewer.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.conf import settings
from django.db.models import Prefetch
from django.http import Http404
from django.utils import timezone
from django.utils.translation import gettext as _

from games import chat, i18n, presenters
from games.engine import registry
from games.engine.replay import MODERATION
from games.models import (
    TIME_PER_MOVE_CHOICES,
    ActorKind,
    Match,
    MatchStatus,
    Move,
    Notification,
    Seat,
    Visibility,
)

LOG_TAIL = 30


def seat_of(match: Match, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


def can_view(match: Match, user, token: str | None = None) -> bool:
    if match.visibility == Visibility.PUBLIC:
        return True
    if token and token == match.invite_token:
        return True
    if user is None or not user.is_authenticated:
        return False
    if user.is_staff:
        return True
    return seat_of(match, user) is not None or match.invitations.filter(invited_user=user).exists()


def get_match_for(pk: int, user, token: str | None = None) -> Match:
    """The match if this person may look at it; 404 otherwise (private matches
    are not even admitted to exist)."""
    match = (
        Match.objects.select_related("created_by")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")))
        .filter(pk=pk)
        .first()
    )
    if match is None or not can_view(match, user, token):
        raise Http404("No such match.")
    return match


def seat_name(seat: Seat) -> str:
    if seat.user_id is None:
        return _("Bot %(n)s") % {"n": seat.index + 1}
    profile = getattr(seat.user, "profile", None)
    name = profile.name if profile else seat.user.username
    return f"{name} (bot)" if seat.played_by_bot else name


@dataclass
class SeatRow:
    index: int
    name: str
    is_bot: bool
    is_me: bool
    to_move: bool
    rank: int | None
    score: int | None
    strikes: int = 0
    bank_left: Any = None
    vacation_until: Any = None
    replaced_by_bot: bool = False
    username: str = ""


@dataclass
class LogLine:
    seq: int
    who: str  # the name shown before the sentences ("" when they name the actor)
    actor_kind: str
    created_at: Any
    sentences: list[str] = field(default_factory=list)


def _vacation(seat: Seat, now):
    if seat.user_id is None:
        return None
    profile = getattr(seat.user, "profile", None)
    until = profile.vacation_until if profile else None
    return until if until and until > now else None


def visible_events(events: list[dict], viewer: int | None) -> list[dict]:
    return [e for e in events if e.get("private_to") is None or e.get("private_to") == viewer]


def describe_moderation(event: dict, names: list[str]) -> str:
    """A moderator's entry in the log, in words players understand."""
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
        "undo": _("A moderator took back the last %(n)s moves.") % {"n": event.get("count")},
    }
    return str(sentences.get(op, _("A moderator changed the match.")))


def _log_who(move: Move, names: list[str], sentences_name_the_actor: bool) -> str:
    """Who the log line is about, or "" when the game's sentences say it."""
    if move.actor_kind == ActorKind.GAME:
        return str(_("Setup"))
    if move.seat is None or move.seat >= len(names):
        return str(_("Moderator"))
    if move.actor_kind == ActorKind.PLAYER:
        return "" if sentences_name_the_actor else names[move.seat]
    return f"{names[move.seat]} ({ActorKind(move.actor_kind).label})"


def log_lines(match: Match, names: list[str], viewer: int | None, moves) -> list[LogLine]:
    presenter = presenters.get(match.game_key)
    lines = []
    for move in moves:
        line = LogLine(
            seq=move.seq,
            who=_log_who(move, names, presenter.SENTENCES_NAME_THE_ACTOR),
            actor_kind=move.actor_kind,
            created_at=move.created_at,
        )
        for event in visible_events(move.events, viewer):
            if event.get("type") == MODERATION:
                line.sentences.append(describe_moderation(event, names))
            else:
                line.sentences.append(presenter.describe_event(event, names))
        lines.append(line)
    return lines


def match_panel(match: Match, user, path: list[str] | None = None) -> dict[str, Any]:
    """Everything the match panel shows this person, computed from ``view``."""
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    seats = list(match.seats.all())
    me = seat_of(match, user)
    viewer = me.index if me is not None else None
    names = [seat_name(seat) for seat in sorted(seats, key=lambda s: s.index)]
    context: dict[str, Any] = {
        "match": match,
        "game": game,
        "me": me,
        "names": names,
        "option_rows": option_rows(game, match.options),
        "time_per_move_label": time_per_move_label(match.time_per_move),
        "poll_seconds": settings.SMOKI["POLL_SECONDS"],
    }
    context["chat"] = chat.visible_messages(match)
    context["can_chat"] = me is not None
    if match.state is None:
        context.update(seat_rows=[], board=None, choices=None, log=[])
        return context
    to_move = set(game.current_seats(match.state))
    now = timezone.now()
    has_bank = bool(match.time_bank or match.time_bank_increment)
    context["timeout_policy"] = match.get_timeout_policy_display()
    context["seat_rows"] = [
        SeatRow(
            index=seat.index,
            name=names[seat.index],
            is_bot=seat.played_by_bot,
            is_me=seat.index == viewer,
            to_move=seat.index in to_move,
            rank=seat.rank,
            score=seat.score,
            strikes=seat.strikes,
            bank_left=seat.bank_left if has_bank else None,
            vacation_until=_vacation(seat, now),
            replaced_by_bot=seat.status in ("bot", "timed_out"),
            username=seat.user.username if seat.user_id and not seat.is_bot else "",
        )
        for seat in seats
    ]
    # Presenters also get the seat names and the version, to label choices and
    # to post a move from a click on the board.
    view = {**game.view(match.state, viewer), "_names": names, "_version": match.version}
    context["my_turn"] = viewer is not None and viewer in to_move and not match.is_over
    context["choices"] = None
    if context["my_turn"] and me.status == "playing":
        legal = game.legal_actions(match.state, viewer)
        context["choices"] = presenters.choice_level(legal, view, presenter, path or [])
    context["board_template"] = presenter.BOARD_TEMPLATE
    # The board may draw the current choices where they happen (cells to click).
    context["board"] = presenter.board_context(view, viewer, names, context["choices"])
    recent = list(Move.objects.filter(match=match).order_by("-seq")[:LOG_TAIL])[::-1]
    context["log"] = log_lines(match, names, viewer, recent)
    context["log_truncated"] = match.version > len(recent)
    if me is not None and not context["my_turn"]:
        context["next_waiting"] = next_match_waiting(user, exclude=match.pk)
    return context


def time_per_move_label(duration) -> str:
    return str(dict(TIME_PER_MOVE_CHOICES).get(duration, duration))


def option_rows(game, options: dict) -> list[tuple[str, str]]:
    rows = []
    for option in game.options:
        value = options.get(option.key, option.default)
        rows.append((i18n.option_label(option), i18n.choice_label(option, value)))
    return rows


def full_log(match: Match, user) -> list[LogLine]:
    me = seat_of(match, user)
    names = [seat_name(seat) for seat in match.seats.all()]
    moves = Move.objects.filter(match=match).order_by("seq")
    return log_lines(match, names, me.index if me else None, moves)


# -- Lobby -------------------------------------------------------------------


@dataclass
class MatchRow:
    match: Match
    title: str
    players: list[str]
    my_turn: bool
    free_seats: int
    time_per_move: str


def _row(match: Match, user=None) -> MatchRow:
    game = registry.get(match.game_key)
    seats = list(match.seats.all())
    my_turn = (
        user is not None and match.status == MatchStatus.ACTIVE and match.waiting_on_id == user.pk
    )
    return MatchRow(
        match=match,
        title=game.title,
        players=[seat_name(s) for s in seats],
        my_turn=my_turn,
        free_seats=match.n_seats - len(seats),
        time_per_move=time_per_move_label(match.time_per_move),
    )


def _with_seats(queryset):
    return queryset.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))
    )


def open_public_matches(user=None, limit: int = 50) -> list[MatchRow]:
    queryset = Match.objects.filter(status=MatchStatus.OPEN, visibility=Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        queryset = queryset.exclude(seats__user=user)
    return [_row(m) for m in _with_seats(queryset.order_by("-created_at")[:limit])]


def my_matches(user) -> list[MatchRow]:
    """My open and active matches: those waiting for me first, least time left first."""
    queryset = _with_seats(
        Match.objects.filter(seats__user=user, status__in=[MatchStatus.OPEN, MatchStatus.ACTIVE])
        .defer("state", "options")
        .order_by("deadline", "-created_at")
    )
    rows = [_row(m, user) for m in queryset]
    far_future = timezone.now() + timezone.timedelta(days=10_000)
    rows.sort(key=lambda r: (not r.my_turn, r.match.deadline or far_future))
    return rows


def my_finished_matches(user, limit: int = 20) -> list[MatchRow]:
    queryset = _with_seats(
        Match.objects.filter(
            seats__user=user, status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED]
        ).order_by("-finished_at")[:limit]
    )
    return [_row(m, user) for m in queryset]


def my_invitations(user) -> list[Match]:
    matches = list(
        Match.objects.filter(invitations__invited_user=user, status=MatchStatus.OPEN)
        .exclude(seats__user=user)
        .select_related("created_by")
    )
    for match in matches:
        match.title = registry.get(match.game_key).title
    return matches


def next_match_waiting(user, exclude: int | None = None) -> Match | None:
    """The match where this player's move is most urgent (for the "next" button):
    one indexed query, whatever the number of matches the player has."""
    return (
        Match.objects.filter(status=MatchStatus.ACTIVE, waiting_on=user)
        .exclude(pk=exclude)
        .only("pk", "deadline")
        .order_by("deadline")
        .first()
    )


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


def unread_count(user) -> int:
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def recent_notifications(user, limit: int = 50) -> list:
    from games import notifications

    rows = list(Notification.objects.filter(user=user).select_related("match")[:limit])
    for row in rows:
        row.text = notifications.message_context(row)["subject"]
    return rows

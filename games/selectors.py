"""Reads: what a given person may see of matches, computed, never trusted.

Nothing but a game's ``view`` output for the viewer's own seat reaches a
template; private events are filtered here, per viewer.
"""

from __future__ import annotations

import functools
import hashlib
import json
import secrets
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.db import connection
from django.db.models import Case, Exists, F, OuterRef, Prefetch, Value, When
from django.http import Http404
from django.utils import timezone
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _

from accounts.selectors import preferences
from games import chat, i18n, match_rows, presenters, roles
from games.engine import registry
from games.engine.replay import MODERATION, is_moderation, is_opening
from games.forms import PLAY_BOT_LEVELS
from games.models import (
    TIME_PER_MOVE_CHOICES,
    ActorKind,
    Invitation,
    Match,
    MatchStatus,
    Move,
    Notification,
    Seat,
    SeatStatus,
    Visibility,
    pending_undo,
    undo_judges,
)
from players.models import NEWCOMER_RATING, Rating, RatingChange
from players.refs import (
    PlayerRef,
    rating_change_text,
    ref_for_seat,
    short_rating_change,
)

LOG_TAIL = 30
MAX_ID = match_rows.MAX_ID


def seat_of(match: Match, user) -> Seat | None:
    if user is None or not user.is_authenticated:
        return None
    for seat in match.seats.all():
        if seat.user_id == user.pk:
            return seat
    return None


def can_view(match: Match, user, token: str | None = None) -> bool:
    """Who may look at a match, on every page (match, panel, log, verify, JSON).

    Public matches: anyone. Private ones: their players and moderators; and,
    while the match is still gathering players, whoever holds its invite
    link or a personal invitation, so they can look before joining. Once it
    starts an invitation grants nothing more (it can no longer be used to
    join), and an invited spectator would see a private match's play.
    """
    if match.visibility == Visibility.PUBLIC:
        return True
    gathering = match.status == MatchStatus.OPEN
    if gathering and token and secrets.compare_digest(token.encode(), match.invite_token.encode()):
        return True
    if user is None or not user.is_authenticated:
        return False
    if roles.is_moderator(user) or seat_of(match, user) is not None:
        return True
    return gathering and match.invitations.filter(invited_user=user).exists()


def stamp_for(pk: int, user, token: str | None = None, user_id=None) -> str | None:
    """The match's stamp if this person may look at it, else None: the poll's
    cheap check, one query by primary key reading neither the state nor the
    seats nor the profile.

    Access is decided as ``can_view`` decides it. A public match (or the
    invitation link's token) needs nothing more, not even the user (``user``
    is loaded lazily and is not touched). ``user_id``, the id the session
    names, lets the same query ask whether that user holds a seat or an
    invitation; it counts only for a private match and only once the
    authenticated ``user`` is loaded and is that user. Moderators are asked
    about only when they hold neither.
    """
    if not 0 < pk <= MAX_ID:
        return None
    try:
        user_id = int(user_id) if user_id is not None else None
    except (TypeError, ValueError):
        user_id = None
    row = _stamp_row(pk, user_id)
    if row is None:
        return None
    gathering = row["status"] == MatchStatus.OPEN
    public = row["visibility"] == Visibility.PUBLIC or bool(
        gathering and token and secrets.compare_digest(token.encode(), row["invite_token"].encode())
    )
    if not public and not _may_see_private(pk, user, user_id, row, gathering):
        return None
    return Match.stamp_of(*(row[name] for name in Match.STAMP_FIELDS))


# The poll's statement, as SQL: the ORM builds it once per process and database
# vendor, with marker values where the match's and the user's ids go. Building
# it through the ORM on every poll cost more than running it.
_PK_MARK, _USER_MARK = 7_700_000_001, 7_700_000_002


@functools.cache
def _stamp_statement(
    vendor: str, with_access: bool
) -> tuple[str, tuple[str, ...], tuple[str, ...]]:
    """(SQL, the name of each parameter: "pk" or "user", the name of each column)."""
    queryset = Match.objects.filter(pk=_PK_MARK)
    extra: tuple[str, ...] = ()
    if with_access:
        queryset = _with_access(queryset, _USER_MARK)
        extra = ("seated", "invited")
    queryset = queryset.order_by().values(*Match.STAMP_FIELDS, "visibility", "invite_token", *extra)
    query = queryset[:1].query
    sql, params = query.sql_with_params()
    marks = {_PK_MARK: "pk", _USER_MARK: "user"}
    columns = (*query.values_select, *query.annotation_select)
    # Constants the ORM passes as parameters (``SELECT 1`` in EXISTS) stay as they are.
    return sql, tuple(marks.get(param, param) for param in params), columns


def _stamp_row(pk: int, user_id: int | None) -> dict | None:
    """The stamp's columns, visibility and token (and, given ``user_id``, whether
    that user is seated or invited) of match ``pk``, converted as the ORM would."""
    sql, params, columns = _stamp_statement(connection.vendor, user_id is not None)
    with connection.cursor() as cursor:
        ids = {"pk": pk, "user": user_id}
        cursor.execute(sql, [ids.get(param, param) for param in params])
        values = cursor.fetchone()
    if values is None:
        return None
    row = dict(zip(columns, values, strict=True))
    for name in ("deadline", "updated_at"):
        row[name] = _moment(row[name])
    if isinstance(row["undo_request"], str):  # JSON arrives as text on every backend
        row["undo_request"] = json.loads(row["undo_request"])
    for name in ("seated", "invited"):
        if name in row:
            row[name] = bool(row[name])
    return row


def _moment(value):
    """A column's datetime, aware: SQLite hands back UTC text, PostgreSQL a datetime."""
    if isinstance(value, str):
        value = datetime.fromisoformat(value)
    if value is not None and timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def _with_access(queryset, user_id):
    """Whether the user holds a seat in, or an invitation to, each match."""
    return queryset.annotate(
        seated=Exists(Seat.objects.filter(match=OuterRef("pk"), user_id=user_id)),
        invited=Exists(Invitation.objects.filter(match=OuterRef("pk"), invited_user_id=user_id)),
    )


def _may_see_private(pk: int, user, user_id, row: dict, gathering: bool) -> bool:
    """As ``can_view``: players, moderators, and invited users while the match
    gathers players."""
    if user is None or not user.is_authenticated:
        return False
    if user_id is None or str(user.pk) != str(user_id):
        row = _with_access(Match.objects.filter(pk=pk), user.pk).values(
            "seated", "invited"
        ).first() or {"seated": False, "invited": False}
    return bool(row["seated"] or (gathering and row["invited"]) or roles.is_moderator(user))


def _load_match(pk: int, user) -> Match | None:
    """The match with its seats, players and profiles in one statement
    (``match_rows.read``). For a signed-in user the same statement brings what
    the panel and the page's top bar show of their other matches: the most
    urgent match waiting for them and the unread-notification count, each a
    subquery on an index, whatever the number of matches they have."""
    viewer = user.pk if user is not None and user.is_authenticated else None
    match, seats = match_rows.read(pk, waiting_for=viewer, unread_for=viewer)
    if match is None:
        return Match.objects.filter(pk=pk).first() if 0 < pk <= MAX_ID else None
    match_rows.remember_seats(match, seats)
    return match


def get_match_for(pk: int, user, token: str | None = None) -> Match:
    """The match if this person may look at it; 404 otherwise (private matches
    are not even admitted to exist)."""
    match = _load_match(pk, user)
    if match is None or not can_view(match, user, token):
        raise Http404("No such match.")
    return match


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
    ref: PlayerRef | None = None

    @property
    def strikes_label(self) -> str:
        """ "2 missed deadlines", worded here: the panel is a Jinja2 template."""
        return ngettext("%(n)s missed deadline", "%(n)s missed deadlines", self.strikes) % {
            "n": self.strikes
        }


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
        }.get(event.get("then"), _("%(who)s resigned."))
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
    return f"{names[move.seat]} ({ActorKind(move.actor_kind).label})"


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


def undoable_seat(match: Match, last: Move | None) -> int | None:
    """The seat that may ask to take back ``last``, judged from the log alone
    (``games.safety`` also checks, when asked, that no randomness was used)."""
    if match.status != MatchStatus.ACTIVE or last is None:
        return None
    if last.actor_kind != ActorKind.PLAYER or last.seat is None:
        return None
    if is_opening(last.action) or is_moderation(last.action):
        return None
    if any(event.get("private_to") is not None for event in last.events):
        return None
    if registry.get(match.game_key).public_action(last.action) != last.action:
        return None
    return last.seat


def _safety(match: Match, seats, me, names, last) -> dict[str, Any]:
    """Resigning and taking back a move: what this viewer may do or answer now."""
    playing = me is not None and me.status == SeatStatus.PLAYING and not match.is_over
    request = pending_undo(match)
    context: dict[str, Any] = {
        "can_resign": playing,
        "resign_loses": match.resigning_ends_it,
        "undo_request": None,
        "can_ask_undo": False,
    }
    if request is not None:
        judges = undo_judges(seats, request["seat"])
        context["undo_request"] = {
            "asker": names[request["seat"]],
            "mine": me is not None and me.index == request["seat"],
            "to_answer": playing and me.index in judges and me.index not in request["agreed"],
        }
    elif playing:
        context["can_ask_undo"] = undoable_seat(match, last) == me.index
    return context


def confirms_moves(user, touch: bool) -> bool:
    """Whether this player's last click of a move first asks to confirm it.

    By the profile's preference; "auto" means on a touch screen (the page
    tells by a cookie its script sets), where a mis-tap is easy.
    """
    preference = preferences(user)["confirm_moves"] if user.is_authenticated else "auto"
    return preference == "always" or (preference == "auto" and touch)


def board_cache_key(
    match: Match, user, names: list[str], layer: str = "", viewpoint: str = ""
) -> str:
    """The shared cache's key of a board drawn without choices, for every viewer.

    Everything the drawing depends on is in it: the match, its stamp
    (version, status, deadline, undo request, last change) and a digest of
    its state (a position is only ever written with a new version, but the
    key does not rely on it), the language, the colour theme, the seat
    names and the presenter's ``board_viewpoint`` (by default "", every viewer
    alike). Not the viewer: a board holds nothing a seat alone may see (each
    viewer's private part is drawn apart, under ``viewer_cache_key``), so every
    seat without choices, every spectator and every poll of the version share
    one drawing (tests/conformance/test_public_board.py checks that it is the
    same for all of them). ``layer`` is for a part of the board that depends
    on the viewer alone (what changed since their last visit): its own key
    part, so such a drawing is never served to another viewer.
    """
    theme = preferences(user)["theme"] if user.is_authenticated else "auto"
    names_tag = hashlib.sha256("\x1f".join(names).encode()).hexdigest()[:16]
    position = hashlib.sha256(json.dumps(match.state).encode()).hexdigest()[:24]
    parts = (match.pk, match.stamp, position, get_language(), theme, names_tag, viewpoint, layer)
    return "board:" + ":".join(str(part) for part in parts)


def viewer_cache_key(board_key: str, viewer: int | None, user) -> str:
    """The key of what one viewer sees beside the shared board: their private
    part and the board in words (a seat's words name their own hand). A
    spectator's is shared by every spectator; a seat's names the user too, so
    no one else ever reads it."""
    seen_from = "public" if viewer is None else f"seat{viewer}-u{user.pk}"
    return f"{board_key}:{seen_from}"


def _scene(
    match,
    game,
    presenter,
    user,
    me,
    names,
    path,
    touch,
    my_turn,
    changed=frozenset(),
    kept_boards=True,
) -> dict[str, Any]:
    """The board, its words, the viewer's choices and private part: the
    presenter's one description of what this viewer sees
    (``presenters.scene``), or, when they have no choices, the board as
    already drawn for this version by anyone, with their own private part and
    words (``board_cache_key``, ``viewer_cache_key``; games/jinja.py
    ``draw_board`` keeps what it draws).

    ``kept_boards=False``: the answer to the move that made this version, whose
    board no one can have drawn yet; it is neither looked up nor kept (the key
    digests the whole state), and a later look at the version keeps it."""
    viewer = me.index if me is not None else None
    context: dict[str, Any] = {"board_template": presenter.BOARD_TEMPLATE, "choices": None}
    choosing = my_turn and me.status == "playing"
    if not choosing and kept_boards:
        layer = _changed_layer(changed)
        viewpoint = presenters.hook(presenter, "board_viewpoint")(viewer)
        key = context["board_cache_key"] = board_cache_key(match, user, names, layer, viewpoint)
        own = context["viewer_cache_key"] = viewer_cache_key(key, viewer, user)
        drawn = cache.get_many([key, own])
        if key in drawn and own in drawn:
            context.update(
                board=None,
                board_html=drawn[key],
                private_html=drawn[own]["private"],
                board_text=drawn[own]["words"],
            )
            return context
        if key in drawn:  # another viewer drew the board: only this viewer's own part
            view = {**game.view(match.state, viewer), "_names": names, "_version": match.version}
            words, private = presenters.beside_the_board(presenter, view, viewer, names)
            context.update(board=None, board_html=drawn[key], board_text=words, private=private)
            return context
    # Presenters also get the seat names and the version, to label choices and
    # to post a move from a click on the board.
    view = {**game.view(match.state, viewer), "_names": names, "_version": match.version}
    choices = None
    if choosing:
        legal = game.legal_actions(match.state, viewer)
        choices = presenters.choice_level(legal, view, presenter, path or [])
        if confirms_moves(user, touch):
            # The last click leads to a confirmation instead of posting the move.
            for choice in choices.choices:
                choice.action_json = None
        n = len(choices.choices)
        context["choices_count"] = ngettext("%(n)s choice", "%(n)s choices", n) % {"n": n}
    # The board may draw the current choices where they happen (cells to click).
    scene = presenters.scene(presenter, view, viewer, names, choices)
    context.update(
        board_template=scene.template,
        board=scene.board,
        board_text=scene.words,
        choices=scene.choices,
        private=scene.private,
    )
    return context


def _changed_layer(changed) -> str:
    """The board cache key's part for highlighted elements: none, or a digest
    of which (a board marked for one viewer is never served to another)."""
    if not changed:
        return ""
    return "changed-" + hashlib.sha256("\x1f".join(sorted(changed)).encode()).hexdigest()[:16]


def _marks(changes, context: dict[str, Any]) -> frozenset:
    return frozenset(changes(context)) if changes else frozenset()


def match_panel(
    match: Match,
    user,
    path: list[str] | None = None,
    touch: bool = False,
    new_moves: list[Move] | None = None,
    changes: Callable[[dict[str, Any]], Iterable[str]] | None = None,
    answers_move: bool = False,
    page_keeps: bool = False,
) -> dict[str, Any]:
    """Everything the match panel shows this person, computed from ``view``.

    ``changes``: given the panel's context once its log is in it, the
    presenter's keys of the board elements to mark as changed since this
    viewer's last look (the match page's catch-up); the board is drawn with
    those marks, under a cache key of their own (``_changed_layer``), never in
    place of the drawing every other viewer of the version shares.

    ``new_moves``: the rows a move just wrote, when the page that posted it
    shows the log as it was just before them (``log_answer``). The panel then
    carries those rows' lines only, for the page to add to the log it keeps,
    instead of reading and describing the last 30 again.

    ``answers_move``: the panel answers the move that made this version (whose
    board is in no cache yet). ``page_keeps``: the page that posted it shows
    the match as it was just before it (``page_keeps``), so the parts no move
    changes (the title, the fair dice and options, the chat) are left to the
    page and neither read nor computed."""
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    seats = list(match.seats.all())
    me = seat_of(match, user)
    viewer = me.index if me is not None else None
    names = [seat.display_name for seat in sorted(seats, key=lambda s: s.index)]
    context: dict[str, Any] = {
        "match": match,
        "game": game,
        "me": me,
        "names": names,
        "poll_seconds": settings.SMOKI["POLL_SECONDS"],
        "urls": presenters.MatchUrls.of(match.pk),
        "page_keeps": page_keeps,
        "shown": panel_shown(match),
    }
    if not page_keeps:
        context["option_rows"] = option_rows(game, match.options)
        context["time_per_move_label"] = time_per_move_label(match.time_per_move)
        context["chat"] = chat.visible_messages(match)
        context["can_chat"] = me is not None
    context["login_to_play"] = may_be_a_player(match, seats, user)
    if match.state is None:
        # The creator may fill the empty seats with bots of a level (games.forms).
        context.update(seat_rows=[], board=None, choices=None, log=[], bot_levels=PLAY_BOT_LEVELS)
        context["changed"] = _marks(changes, context)
        return context
    to_move = set(game.current_seats(match.state))
    now = timezone.now()
    has_bank = bool(match.time_bank or match.time_bank_increment)
    if not page_keeps:
        context["timeout_policy"] = match.get_timeout_policy_display()
        context["takeover_level"] = match.get_takeover_level_display()
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
            ref=ref_for_seat(seat, names[seat.index]),
        )
        for seat in seats
    ]
    context["my_turn"] = viewer is not None and viewer in to_move and not match.is_over
    if match.is_over and match.result:
        context["final"] = final_banner(match, seats, names, presenter, viewer)
        context["rematch"] = (
            match.rematches.exclude(status=MatchStatus.ABORTED).order_by("-pk").first()
        )
        context["can_rematch"] = (
            me is not None and not me.is_bot and match.status == MatchStatus.FINISHED
        )
    if new_moves:
        recent = new_moves
        context["log_added"] = True
        context["log_truncated"] = match.version > LOG_TAIL
    else:
        recent = match_rows.recent_moves(match.pk, LOG_TAIL)
        context["log_truncated"] = match.version > len(recent)
    log_names = [seat.player_name for seat in sorted(seats, key=lambda s: s.index)]
    context["log"] = log_lines(match, log_names, viewer, recent, new=bool(new_moves))
    context["log_rows"] = recent
    # What to mark on the board (the match page's catch-up) is known from the
    # log, so the scene is built once, after it, with the marks or without.
    context["changed"] = changed = _marks(changes, context)
    my_turn = context["my_turn"]
    kept_boards = not answers_move
    context.update(
        _scene(match, game, presenter, user, me, names, path, touch, my_turn, changed, kept_boards)
    )
    context["player_links"] = player_links(seats)
    context.update(_safety(match, seats, me, names, recent[-1] if recent else None))
    if me is not None and not context["my_turn"]:
        if hasattr(match, "next_waiting_pk"):  # read with the match (``_load_match``)
            pk = match.next_waiting_pk
            context["next_waiting"] = Match(pk=pk) if pk is not None else None
        else:
            context["next_waiting"] = next_match_waiting(user, exclude=match.pk)
    if hasattr(match, "unread_count"):
        context["unread_notifications"] = match.unread_count
    return context


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


PANEL_SHOWN_HEADER = "Smoki-Panel"


def panel_shown(match: Match) -> str:
    """What a panel drawn now shows of the match, as its page tells it back
    (``hx-headers``, header ``Smoki-Panel``): the match's stamp (every change a
    page shows of a match outside its board changes it: a move, a chat message,
    a join, an undo request, the clock) and the language it is drawn in."""
    return f"{match.stamp}:{get_language()}"


def page_keeps(shown: str | None, move: Move) -> bool:
    """Whether the page that posted ``move`` may keep the parts of its panel no
    move changes (the title and How to play, the fair dice and options, the
    chat): the answer then draws placeholders the page fills with its own
    (``hx-preserve``), and neither computes nor reads them.

    Only when the page shows the match as it was just before ``move``, in this
    language (``shown`` is that page's ``panel_shown``; a page behind a chat
    message, an undo request or a join gets the whole panel), ``move`` is the
    match's last entry and the match is still in play: the end of a match
    reveals the seed and draws the end banner, so a move that ends it answers
    with the whole panel, as does any other header (none, stale, forged)."""
    before = getattr(move, "stamp_before", None)
    if shown is None or before is None or move.match.version != move.seq:
        return False
    if move.match.status != MatchStatus.ACTIVE:
        return False
    return shown == f"{before}:{get_language()}"


def player_links(seats: list[Seat]) -> list[tuple[str, str]]:
    """(name, page address) of each person seated, for the log's names."""
    return [
        (seat.player_name, ref_for_seat(seat, seat.player_name).url)
        for seat in seats
        if seat.user_id is not None
    ]


def may_be_a_player(match: Match, seats: list[Seat], user) -> bool:
    """Whether a visitor who is not logged in may have a seat here: a free
    seat in a match still gathering players, or a seat a person plays in a
    match in play (a "your turn" link opened before logging in)."""
    if user.is_authenticated:
        return False
    if match.status == MatchStatus.OPEN:
        return len(seats) < match.n_seats
    return match.status == MatchStatus.ACTIVE and any(
        seat.user_id is not None and not seat.played_by_bot for seat in seats
    )


@dataclass
class FinalRow:
    rank: int | None
    name: str
    is_me: bool
    dropped: bool
    cells: list[str]
    ref: PlayerRef | None = None
    rating_change: RatingChange | None = None
    rating_text: str = ""  # "1,538 (+26)"


@dataclass
class FinalBanner:
    headline: str
    reason: str
    columns: list[str]
    rows: list[FinalRow]
    my_rating: str = ""


def final_banner(
    match: Match, seats: list[Seat], names: list[str], presenter, viewer
) -> FinalBanner:
    """Who won and why, and every seat's score broken down by the game's scoring."""
    result = match.result or {}
    summary = presenters.hook(presenter, "final_summary")(result, names)
    dropped = set(result.get("dropped", []))
    n = len(names)
    columns = [str(column) for column in summary.get("columns", [])]
    given = list(summary.get("cells", []))
    cells = given + [[] for _i in range(n - len(given))]
    width = len(columns)
    changes = (
        {c.user_id: c for c in RatingChange.objects.filter(match=match)} if match.rated else {}
    )
    rows = [
        FinalRow(
            rank=seat.rank,
            name=names[seat.index],
            is_me=seat.index == viewer,
            dropped=seat.index in dropped,
            cells=(list(cells[seat.index]) + [""] * width)[:width],
            ref=ref_for_seat(seat, names[seat.index]),
            rating_change=changes.get(seat.user_id),
            rating_text=short_rating_change(changes.get(seat.user_id)),
        )
        for seat in seats
    ]
    rows.sort(key=lambda row: (row.rank is None, row.rank or 0))
    winners = [row.name for row in rows if row.rank == 1]
    if match.status != MatchStatus.FINISHED:
        headline = str(_("The match was aborted."))
    elif len(winners) == 1:
        headline = str(_("%(name)s won.") % {"name": winners[0]})
    elif winners:
        headline = str(_("%(names)s share the win.") % {"names": ", ".join(winners)})
    else:
        headline = str(_("The match is over."))
    players = [seat.player_name for seat in sorted(seats, key=lambda s: s.index)]
    reason = " ".join(
        sentence
        for sentence in [*ended_by(result, players), str(summary.get("reason", ""))]
        if sentence
    )
    mine = next((row.rating_change for row in rows if row.is_me), None)
    return FinalBanner(
        headline,
        reason,
        columns,
        rows,
        my_rating=rating_change_text(mine, match.game_key) if mine else "",
    )


def ended_by(result: dict, players: list[str]) -> list[str]:
    """How a match ended when the game itself did not end it (a resignation, a
    loss on time, a closed account, a moderator's ranks), and which seats the
    game ranked first but that rank last because a bot had taken them over.
    ``players`` are the players' own names (``Seat.player_name``). The game's
    own reason (``final_summary``) follows these sentences."""
    details = result.get("details") or {}

    def name(seat) -> str:
        return players[seat] if isinstance(seat, int) and 0 <= seat < len(players) else "?"

    sentences = []
    reason = details.get("reason")
    if details.get("adjudicated"):
        sentences.append(_("A moderator decided the result."))
    elif reason == "resigned":
        sentences.append(_("%(who)s resigned.") % {"who": name(details.get("resigned"))})
    elif reason == "time":
        sentences.append(_("%(who)s ran out of time.") % {"who": name(details.get("timed_out"))})
    elif reason == "deactivated":
        sentences.append(
            _("A moderator closed %(who)s's account.") % {"who": name(details.get("deactivated"))}
        )
    game_ranks = result.get("game_ranks") or []
    ranks = result.get("ranks") or []
    for seat in result.get("dropped") or []:
        if seat < len(game_ranks) and game_ranks[seat] == 1 and ranks[seat] != 1:
            sentences.append(
                _(
                    "%(who)s came first in the game, but a bot had taken over the seat, "
                    "so it ranks last."
                )
                % {"who": name(seat)}
            )
    return [str(sentence) for sentence in sentences]


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
    names = [seat.player_name for seat in sorted(match.seats.all(), key=lambda s: s.index)]
    moves = Move.objects.filter(match=match).order_by("seq")
    return log_lines(match, names, me.index if me else None, moves)


# -- Lobby -------------------------------------------------------------------


@dataclass
class MatchRow:
    match: Match
    title: str
    players: list[PlayerRef]
    my_turn: bool
    free_seats: int
    time_per_move: str
    rating_range: str = ""  # "1100–1300", "≥ 1100": who may join an open match


def _row(match: Match, user=None, ratings: dict | None = None) -> MatchRow:
    game = registry.get(match.game_key)
    seats = list(match.seats.all())
    my_turn = (
        user is not None and match.status == MatchStatus.ACTIVE and match.waiting_on_id == user.pk
    )
    return MatchRow(
        match=match,
        title=game.title,
        players=[
            ref_for_seat(s, rating=ratings.get((s.user_id, match.game_key)) if ratings else None)
            for s in seats
        ],
        my_turn=my_turn,
        free_seats=match.n_seats - len(seats),
        time_per_move=time_per_move_label(match.time_per_move),
        rating_range=rating_range_label(match),
    )


def rating_range_label(match: Match) -> str:
    low, high = match.min_rating, match.max_rating
    if low is not None and high is not None:
        return f"{low}–{high}"
    if low is not None:
        return f"≥ {low}"
    return f"≤ {high}" if high is not None else ""


def _with_seats(queryset):
    return queryset.prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("user__profile"))
    )


@dataclass(frozen=True)
class GameTile:
    """One game as the lobby shows it: its picture, who may play, what it is about."""

    key: str
    title: str
    icon: str  # a game-icons name (games/icons.py)
    players: str
    summary: str


def game_tiles() -> list[GameTile]:
    """Every registered game for the lobby, in the active language: its icon and
    one-sentence summary come from its presenter (``ICON``, ``SUMMARY``)."""
    tiles = []
    for entry in registry.registrations():
        game = entry.rules
        presenter = presenters.get(entry.key)
        if game.min_players == game.max_players:
            players = ngettext("%(n)d player", "%(n)d players", game.min_players) % {
                "n": game.min_players
            }
        else:
            players = _("%(min)d–%(max)d players") % {
                "min": game.min_players,
                "max": game.max_players,
            }
        tiles.append(
            GameTile(
                key=entry.key,
                title=game.title,
                icon=presenter.ICON,
                players=players,
                summary=str(presenter.SUMMARY),
            )
        )
    return tiles


def open_public_matches(user=None, limit: int = 50) -> list[MatchRow]:
    queryset = Match.objects.filter(status=MatchStatus.OPEN, visibility=Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        queryset = queryset.exclude(seats__user=user)
        # Matches where someone blocked this player are not offered to them.
        queryset = queryset.exclude(
            Exists(
                Seat.objects.filter(
                    match=OuterRef("pk"),
                    user__blocks_made__blocked=user,
                )
            )
        )
    matches = list(_with_seats(queryset.order_by("-created_at")[:limit]))
    ratings = shown_ratings(matches)
    return [_row(m, ratings=ratings) for m in matches]


def shown_ratings(matches: list[Match]) -> dict[tuple[int, str], int]:
    """The rating of every seated player of ``matches`` for that match's game,
    in one query: {(user id, game key): rating}. A player with no rating row
    yet shows a newcomer's number."""
    wanted = {(s.user_id, m.game_key) for m in matches for s in m.seats.all() if s.user_id}
    if not wanted:
        return {}
    rows = Rating.objects.filter(
        user_id__in={u for u, _k in wanted}, game_key__in={k for _u, k in wanted}
    ).values_list("user_id", "game_key", "display")
    found = {(u, k): d for u, k, d in rows}
    return {key: found.get(key, NEWCOMER_RATING) for key in wanted}


def live_public_matches(limit: int = 50) -> list[MatchRow]:
    """Public matches in play, to watch: the most recently active first."""
    queryset = (
        Match.objects.filter(status=MatchStatus.ACTIVE, visibility=Visibility.PUBLIC)
        .defer("state", "options")
        .order_by("-updated_at")[:limit]
    )
    return [_row(m) for m in _with_seats(queryset)]


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
    """Unread entries behind the bell: one per match and kind, however many
    moves, and one per piece of competition news (no match: each tag is its
    own entry, as ``recent_notifications`` lists them)."""
    unread = Notification.objects.filter(user=user, read_at__isnull=True).annotate(
        entry=Case(When(match__isnull=True, then=F("tag")), default=Value(""))
    )
    return unread.values("match_id", "kind", "entry").distinct().count()


def recent_notifications(user, limit: int = 50) -> list:
    """The bell's list: one entry per match and kind, the newest, unread if any is.

    A match has at most one unread row per kind (``notifications.queue``
    updates it), plus the read ones of earlier turns: the player sees one
    "your turn" per match, not thirty.
    """
    from games import notifications

    rows = []
    seen: dict[tuple, Notification] = {}
    for row in Notification.objects.filter(user=user).select_related("match")[: limit * 4]:
        key = (row.match_id, row.kind, row.tag if row.match_id is None else "")
        if key in seen:
            if row.read_at is None:
                seen[key].read_at = None
            continue
        seen[key] = row
        rows.append(row)
        if len(rows) == limit:
            break
    open_invitations = set(
        Invitation.objects.filter(invited_user=user, match__status=MatchStatus.OPEN)
        .exclude(match__seats__user=user)
        .values_list("match_id", flat=True)
    )
    seats_by_match: dict[int, list[Seat]] = {}
    for seat in Seat.objects.filter(match_id__in={row.match_id for row in rows}).select_related(
        "user__profile"
    ):
        seats_by_match.setdefault(seat.match_id, []).append(seat)
    for row in rows:
        # The other players of the match, each linked to their page.
        row.players = [
            ref_for_seat(seat)
            for seat in sorted(seats_by_match.get(row.match_id, []), key=lambda s: s.index)
            if seat.user_id != user.pk
        ]
        row.text = notifications.message_context(row)["subject"]
        row.link = notifications.link_of(row)
        row.can_answer = row.kind == "invitation" and row.match_id in open_invitations
        # A request to take back a move is answered where it is listed, while it waits.
        row.can_answer_undo = (
            row.kind == "undo_request" and notifications.undo_request_asker(row) is not None
        )
    return rows


def due_matches(now):
    """Active matches the sweep must look at now (uses the wake_at partial index),
    the longest due first. Matches due at the same instant (a burst of games
    started together) go oldest first, so the sweep's batches are the same
    on every database."""
    return Match.objects.filter(
        status=MatchStatus.ACTIVE, wake_at__isnull=False, wake_at__lte=now
    ).order_by("wake_at", "pk")


def due_match_ids(now, limit: int = 1000) -> list[int]:
    """The ids of ``due_matches``, at most ``limit`` of them."""
    return list(due_matches(now).values_list("pk", flat=True)[:limit])

"""Building the match panel: everything one viewer sees of a match, computed
from the game's ``view`` for that viewer's own seat (nothing else reaches a
template), in one pass: the seats with the clock and vacations, the log,
the board with its words, choices and the viewer's private part (through
the game's ``Presenter.scene``), the safety buttons and the end banner.

A board drawn without choices is kept in the shared cache and shared by
every viewer of the version (``board_cache_key``); each viewer's private
part under a key naming them (``viewer_cache_key``)."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils import timezone
from django.utils.translation import get_language, gettext, ngettext

from accounts.presence import presence_of
from accounts.refs import PlayerRef, ref_for_seat, ref_for_user
from accounts.selectors import blocked_pairs, not_accepting, preferences
from games import i18n
from games.engine import registry
from games.models import (
    TIME_PER_MOVE_CHOICES,
    Invitation,
    Match,
    MatchStatus,
    Move,
    Seat,
    SeatStatus,
    pending_undo,
    undo_judges,
)
from games.panel import presenters
from games.panel.end_banner import final_banner
from games.panel.move_log import LOG_TAIL, log_lines
from games.play import chat, clock, hints, match_rows, reviews
from games.play.access import may_be_a_player, seat_of
from games.play.bots import PLAY_BOT_LEVELS
from games.play.safety import undoable_seat


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
    # The seat to move's clock waits for the end of its player's weekend day.
    weekend_until: Any = None
    replaced_by_bot: bool = False
    username: str = ""
    ref: PlayerRef | None = None
    # A finished match's "Play again" beside another player (the rematch), its
    # words for a screen reader; or why there is none (a block either way).
    play_again: str = ""
    not_accepting: str = ""
    # "online now" or "last seen …" (accounts.presence), for another person seated.
    presence: Any = None

    @property
    def strikes_label(self) -> str:
        """ "2 missed deadlines", worded here: the panel is a Jinja2 template."""
        return ngettext("%(n)s missed deadline", "%(n)s missed deadlines", self.strikes) % {
            "n": self.strikes
        }


def _vacation(match: Match, seat: Seat, now):
    """Until when the seat's player is away, if their vacation pauses this
    match (one that forbids vacations runs on: nothing to show)."""
    return clock.on_vacation_until(match, seat, now)


def _presence(rows: list[SeatRow], seats: list[Seat], user) -> None:
    """Each other person seated who shows their presence: "online now" or
    "last seen …", read for all of them with one cache ``get_many``
    (``accounts.presence.presence_of``); the profiles came with the seats."""
    me = user.pk if user.is_authenticated else None
    people = {s.index: s.user for s in seats if s.user_id not in (None, me) and not s.is_bot}
    shown = presence_of(people.values())
    for row in rows:
        person = people.get(row.index)
        if person is not None:
            row.presence = shown.get(person.pk)


def _gathering(seats: list[Seat], names: list[str], user) -> list[tuple[str, Any]]:
    """A match still gathering players: each seat's name, and beside every
    other person seated their presence (one ``get_many`` for all)."""
    me = user.pk if user.is_authenticated else None
    ordered = sorted(seats, key=lambda s: s.index)
    people = [s.user for s in ordered if s.user_id not in (None, me) and not s.is_bot]
    shown = presence_of(people)
    return [
        # The name as a PlayerRef writes it (a bot account's with its BOT mark).
        (ref_for_seat(seat, name).titled, shown.get(seat.user_id) if seat.user_id != me else None)
        for seat, name in zip(ordered, names, strict=True)
    ]


def _invited(match: Match, seats: list[Seat]) -> list[PlayerRef]:
    """The players invited to a match still gathering who hold no seat yet,
    as its seated players see them (a bot account's with its BOT mark): one
    query."""
    seated = {seat.user_id for seat in seats}
    invitations = (
        Invitation.objects.filter(match=match)
        .exclude(invited_user_id__in=[pk for pk in seated if pk])
        .select_related("invited_user__profile")
        .order_by("created_at", "pk")
    )
    return [ref_for_user(invitation.invited_user) for invitation in invitations]


def _offer_play_again(rows: list[SeatRow], seats: list[Seat], me: Seat) -> None:
    """A finished match's players list offers its player "Play again" beside
    each other person seated (not their own row, not a bot's): the rematch
    (``lobby.services.rematch``, through its view), which invites the whole
    table, as its words say. Where either of the two blocks the other, the
    row says the one neutral sentence instead (``not_accepting``), whoever
    blocked. One query for the blocks, none without another person."""
    others = {
        seat.index: seat.user_id
        for seat in seats
        if seat.user_id is not None and not seat.is_bot and seat.index != me.index
    }
    if not others:
        return
    pairs = blocked_pairs([me.user_id, *others.values()])
    for row in rows:
        other = others.get(row.index)
        if other is None:
            continue
        if frozenset((me.user_id, other)) in pairs:
            row.not_accepting = not_accepting()
        elif len(seats) == 2:
            row.play_again = gettext("Play again with %(name)s") % {"name": row.name}
        else:
            row.play_again = gettext("Play again with everyone at this table")


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
    (``Presenter.scene``), or, when they have no choices, the board as
    already drawn for this version by anyone, with their own private part and
    words (``board_cache_key``, ``viewer_cache_key``; games/jinja.py
    ``draw_board`` keeps what it draws).

    ``kept_boards=False``: the answer to the move that made this version, whose
    board no one can have drawn yet; it is neither looked up nor kept (the key
    digests the whole state), and a later look at the version keeps it."""
    viewer = me.sight if me is not None else None
    context: dict[str, Any] = {"board_template": presenter.BOARD_TEMPLATE, "choices": None}
    choosing = my_turn and me.status == "playing"
    if not choosing and kept_boards:
        layer = _changed_layer(changed)
        viewpoint = presenter.board_viewpoint(viewer)
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
            view = presenters.seat_view(game, match.state, viewer, names, match.version)
            beside = presenter.scene(view, viewer, names, None, board=False)
            context.update(
                board=None, board_html=drawn[key], board_text=beside.words, private=beside.private
            )
            return context
    # Presenters also get the seat names and the version, to label choices and
    # to post a move from a click on the board.
    view = presenters.seat_view(game, match.state, viewer, names, match.version)
    choices = None
    if choosing:
        legal = game.legal_actions(match.state, viewer)
        choices = presenter.choice_level(legal, view, path or [])
        if confirms_moves(user, touch):
            # The last click leads to a confirmation instead of posting the move.
            for choice in choices.choices:
                choice.action_json = None
        n = len(choices.choices)
        context["choices_count"] = ngettext("%(n)s choice", "%(n)s choices", n) % {"n": n}
    # The board may draw the current choices where they happen (cells to click).
    scene = presenter.scene(view, viewer, names, choices)
    context.update(
        board_template=scene.template,
        board=scene.board,
        board_text=scene.words,
        choices=scene.choices,
        private=scene.private,
    )
    return context


def _hint(match, game, presenter, seats, user, me, names) -> dict[str, Any]:
    """A practice match's "Hint" button, and the hint already asked for this
    turn in the player's words: the steps of the suggested choice, a link to
    it and the search's estimate (``games.play.hints``)."""
    if me is None or not hints.offered(match, seats, user):
        return {"hint_offered": False}
    hint = hints.current(match, me.index)
    if hint is None:
        return {"hint_offered": True, "hint": None}
    view = presenters.seat_view(game, match.state, me.index, names, match.version)
    steps = presenter.action_steps(hint.action, view)
    return {
        "hint_offered": True,
        "hint": {
            "label": " → ".join(str(label) for _key, label in steps),
            "url": presenters.MatchUrls.of(match.pk).detail_at(".".join(k for k, _ in steps)),
            "chance": round(hint.chance * 100) if hint.chance is not None else None,
        },
    }


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
    # The seat whose secrets this viewer sees: none once they resigned (``Seat.sight``).
    sight = me.sight if me is not None else None
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
        context["clock_rules"] = clock_rules(match)
        context["chat"] = chat.visible_messages(match, seats=seats)
        context["can_chat"] = me is not None
    context["login_to_play"] = may_be_a_player(match, seats, user)
    if match.state is None:
        # The creator may fill the empty seats with bots of a level (games.web.forms).
        context.update(seat_rows=[], board=None, choices=None, log=[], bot_levels=PLAY_BOT_LEVELS)
        context["gathering"] = _gathering(seats, names, user)
        context["invited"] = _invited(match, seats) if me is not None else []
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
            vacation_until=_vacation(match, seat, now),
            weekend_until=clock.weekend_until(match, seat, now) if seat.index in to_move else None,
            replaced_by_bot=seat.status in ("bot", "timed_out"),
            username=seat.user.username if seat.user_id and not seat.is_bot else "",
            ref=ref_for_seat(seat, names[seat.index]),
        )
        for seat in seats
    ]
    _presence(context["seat_rows"], seats, user)
    context["my_turn"] = sight is not None and sight in to_move and not match.is_over
    if match.is_over and match.result:
        context["final"] = final_banner(match, seats, names, presenter, viewer)
        context["review"], context["can_request_review"] = reviews.banner_lines(match, names)
        context["rematch"] = (
            match.rematches.exclude(status=MatchStatus.ABORTED).order_by("-pk").first()
        )
        context["can_rematch"] = (
            me is not None and not me.is_bot and match.status == MatchStatus.FINISHED
        )
        if context["can_rematch"]:
            _offer_play_again(context["seat_rows"], seats, me)
    if new_moves:
        recent = new_moves
        context["log_added"] = True
        context["log_truncated"] = match.version > LOG_TAIL
    else:
        recent = match_rows.recent_moves(match.pk, LOG_TAIL)
        context["log_truncated"] = match.version > len(recent)
    log_names = [seat.player_name for seat in sorted(seats, key=lambda s: s.index)]
    context["log"] = log_lines(match, log_names, sight, recent, new=bool(new_moves))
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
    context.update(_hint(match, game, presenter, seats, user, me, names))
    if me is not None and not context["my_turn"]:
        if hasattr(match, "next_waiting_pk"):  # read with the match (``_load_match``)
            pk = match.next_waiting_pk
            context["next_waiting"] = Match(pk=pk) if pk is not None else None
        else:
            context["next_waiting"] = next_match_waiting(user, exclude=match.pk)
    if hasattr(match, "unread_count"):
        context["unread_notifications"] = match.unread_count
    return context


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


def clock_rules(match) -> list[str]:
    """What a match (or a tournament: both carry the fields) says about
    vacations and weekends, and the reliability it asks of a player
    (``games.play.reliability``), for its page and the lobby, before anyone
    joins."""
    rules = []
    if not match.vacation_allowed:
        rules.append(gettext("no vacation: the clock runs while a player is away"))
    if match.weekend_pause:
        rules.append(gettext("weekend pause: each player's weekend days stop their clock"))
    if getattr(match, "min_reliability", None):  # matches and tournaments; a season asks none
        rules.append(gettext("Minimum reliability: %(n)s%%") % {"n": match.min_reliability})
    return rules


def time_per_move_label(duration) -> str:
    return str(dict(TIME_PER_MOVE_CHOICES).get(duration, duration))


def option_rows(game, options: dict) -> list[tuple[str, str]]:
    rows = []
    for option in game.options:
        value = options.get(option.key, option.default)
        rows.append((i18n.option_label(option), i18n.choice_label(option, value)))
    return rows


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

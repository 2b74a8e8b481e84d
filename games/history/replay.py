"""Reads of a match's past: its replay step by step and its printable record.

A step is a ``seq`` of the match's log (0: the setup, ``match.version``: now).
The position at step N is the state after every log entry up to N, rebuilt
from the seed and the actions as ``games.engine.replay`` does, honouring
undos (a moderator's or an agreed one) the same way.

Rebuilding a 500-move match from its setup on every click would cost
hundreds of ``apply`` calls, so positions are kept in the shared cache every
``CHECKPOINT_EVERY`` steps: a log entry never changes (the log is
append-only), so neither does the position after it. Step N starts from the
kept position at or before N and applies fewer than ``CHECKPOINT_EVERY``
actions. A full rebuild (a cold cache, or an undo between the kept position
and N) keeps every checkpoint it passes. The last step is the stored state.

What each person sees at a step is ``view(state at N, seat)``: a spectator
the public view, a player their own seat's view then (their secrets as they
were, never later ones). The move list beside it holds every move, to jump
to; a player reads its lines up to N with their private ones, the later ones
only as a spectator does. Once the match has ended anyone may look through
any seat's eyes (``?as=``), every line shows as those eyes read it, and the
seed is shown.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from django.core.cache import cache
from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.refs import ref_for_seat
from games.engine import registry
from games.engine.base import Game, IllegalAction
from games.engine.replay import is_moderation, is_opening
from games.models import ActorKind, Match, Move
from games.panel import build, end_banner, move_log, presenters
from games.play import access, hints, positions, reviews

CHECKPOINT_EVERY = positions.CHECKPOINT_EVERY
CHECKPOINT_SECONDS = positions.CHECKPOINT_SECONDS
UNDO_OPS = ("undo", "agreed_undo")
MAX_STEP_DIGITS = 9
STEP = re.compile(r"([+-]?)([0-9]+)")


class NoSuchStep(Exception):
    """``at`` is not a number: the page answers 404."""


def parse_step(raw: str | None, last: int) -> tuple[int, bool]:
    """The step asked for, brought to the nearest valid one, and whether it was moved.

    No ``at`` means the last step. A number out of range (negative, beyond the
    end, absurdly long) goes to the nearest end; anything else is no step.
    """
    if raw is None or raw == "":
        return last, False
    found = STEP.fullmatch(raw.strip())
    if found is None:
        raise NoSuchStep(raw)
    sign, digits = found.groups()
    if len(digits) > MAX_STEP_DIGITS:
        value = -1 if sign == "-" else last + 1
    else:
        value = int(sign + digits)
    step = min(max(value, 0), last)
    return step, str(step) != raw


def _is_undo(action: Any) -> bool:
    return is_moderation(action) and action.get("op") in UNDO_OPS


def _key(match: Match, seq: int) -> str:
    return positions.key(match, seq)


def _rebuild(match: Match, game: Game, entries: list[tuple[int, Any, Any]], step: int):
    """The state at ``step`` from the setup, keeping every checkpoint passed."""
    state = game.setup_for(match.rules_version, match.n_seats, match.options, match.seed)
    history = [state]  # the state before each action in effect, to take actions back
    kept = {}
    for seq, seat, action in entries:
        if seq > step:
            break
        if is_opening(action):
            pass
        elif _is_undo(action):
            count = int(action["count"])
            state = history[len(history) - 1 - count]
            del history[len(history) - count :]
        elif not is_moderation(action):
            state, _events = game.apply(state, seat, action)
            history.append(state)
        if seq and seq % CHECKPOINT_EVERY == 0:
            kept[_key(match, seq)] = state
    if kept:
        cache.set_many(kept, CHECKPOINT_SECONDS)
    return state


def state_at(match: Match, game: Game, entries: list[tuple[int, Any, Any]], step: int):
    """The position after log entry ``step`` (``entries``: (seq, seat, action) in order).

    The last step is the stored state. Otherwise from the nearest kept
    position at or before ``step`` with no undo after it, applying fewer than
    ``CHECKPOINT_EVERY`` actions; from the setup when none is kept.
    """
    if step >= match.version and match.state is not None:
        return match.state
    last_undo = max((seq for seq, _s, a in entries if seq <= step and _is_undo(a)), default=0)
    start = step - step % CHECKPOINT_EVERY
    state = cache.get(_key(match, start)) if start and start >= last_undo else None
    if state is None:
        return _rebuild(match, game, entries, step)
    for seq, seat, action in entries:
        if start < seq <= step and not (is_opening(action) or is_moderation(action)):
            state, _events = game.apply(state, seat, action)
    return state


def step_states(
    match: Match, game: Game, entries: list[tuple[int, Any, Any]], step: int
) -> tuple[Any, Any]:
    """The positions after entries ``step - 1`` and ``step`` (None before step 0).

    Step N is step N-1 with entry N applied once: still fewer than
    ``CHECKPOINT_EVERY`` ``apply`` calls from a kept position. A kept step is
    read from the cache, the last one is the stored state, and an undo is read
    as ``state_at`` reads it."""
    if step == 0:
        return None, state_at(match, game, entries, 0)
    before = state_at(match, game, entries, step - 1)
    entry = next((e for e in entries if e[0] == step), None)
    if step % CHECKPOINT_EVERY == 0:
        kept = cache.get(_key(match, step))  # the position after an entry never changes
        if kept is not None:
            return before, kept
    if entry is None or step >= match.version or _is_undo(entry[2]):
        after = state_at(match, game, entries, step)
    else:
        _seq, seat, action = entry
        moved = not (is_opening(action) or is_moderation(action))
        after = game.apply(before, seat, action)[0] if moved else before
    if step < match.version:
        positions.keep(match, step, after)  # a checkpoint missed so far: the next look reads it
    return before, after


def _entries_between(
    match: Match, first: int, last: int, known: dict[int, tuple]
) -> list[tuple[int, Any, Any]]:
    """Log entries ``first``..``last`` as (seq, seat, action): from ``known`` (rows
    already read, such as the panel's log tail) when it holds them all, else one
    query of at most that many rows."""
    wanted = range(first, last + 1)
    if all(seq in known for seq in wanted):
        return [known[seq] for seq in wanted]
    rows = Move.objects.filter(match=match, seq__gte=first, seq__lte=last).order_by("seq")
    return list(rows.values_list("seq", "seat", "action")[: len(wanted)])


def state_after(match: Match, game: Game, step: int, known_moves=()) -> Any:
    """The position after log entry ``step`` without the whole log, or None.

    From the position kept at or before ``step`` (``games.play.positions``: every
    move keeps every tenth, the replay those it rebuilds) or from the setup
    before the first kept one, applying the fewer than ``CHECKPOINT_EVERY``
    entries after it, taken from ``known_moves`` (Move rows: the panel's log
    tail) or read in one bounded query. None when no position is kept there
    (an evicted cache) or an undo lies after it: the caller then does without."""
    if step >= match.version and match.state is not None:
        return match.state
    known = {move.seq: (move.seq, move.seat, move.action) for move in known_moves}
    start = step - step % CHECKPOINT_EVERY
    entries = _entries_between(match, start + 1, step, known) if step > start else []
    if not start:
        return _rebuild(match, game, entries, step)
    state = positions.kept(match, start)
    if state is None or any(_is_undo(action) for _seq, _seat, action in entries):
        return None
    for _seq, seat, action in entries:
        if not (is_opening(action) or is_moderation(action)):
            state, _events = game.apply(state, seat, action)
    return state


def changes(match: Match, before_state: Any, after_state: Any, viewer: int | None) -> frozenset:
    """What changed between two positions as ``viewer`` sees them: the presenter's
    ``changed`` over two views of the same viewer, so it can hold nothing that
    viewer could not see in either position."""
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    before = game.view(before_state, viewer)
    after = game.view(after_state, viewer)
    return frozenset(presenter.changed(before, after))


@dataclass
class StepLink:
    seq: int
    url: str


@dataclass
class Eyes:
    """A seat (or the public) whose view the replay of a finished match may show."""

    key: str  # "public" or the seat index
    label: str
    url: str
    current: bool


def _url(match: Match, step: int, eyes: str | None, token: str | None) -> str:
    """Step ``step``'s address, through ``eyes``, with the private match's token."""
    return _step_url(reverse("match_replay", args=[match.pk]), step, eyes, token)


def _step_url(base: str, step: int, eyes: str | None, token: str | None) -> str:
    """``_url`` from the replay's address reversed once (the move list links
    every step: 500 of them in a 500-move match)."""
    query: dict[str, Any] = {"at": step}
    if eyes is not None:
        query["as"] = eyes
    if token:
        query["token"] = token
    return f"{base}?{urlencode(query)}"


def _eyes(raw: str | None, match: Match, default: int | None) -> tuple[int | None, str | None]:
    """Whose view to show: the viewer's own seat (or the public's) while the match
    is in play; once it has ended, the seat ``as`` names, or the public's."""
    if not match.is_over or raw is None:
        return default, None
    if raw == "public":
        return None, "public"
    if raw.isascii() and raw.isdigit() and int(raw) < match.n_seats:
        return int(raw), raw
    return default, None


def _log(match: Match, names: list[str], viewer: int | None, moves: list[Move], step: int):
    """The move list beside step ``step``: every move, to jump to any of them.

    While the match is in play a player reads the moves up to ``step`` as they
    read them then (their own private lines among them) and the later ones in
    their public form, as a spectator reads them: nothing they learnt after
    ``step`` shows on it. Once the match has ended every line shows as the
    eyes chosen read it."""
    if match.is_over or viewer is None:
        return move_log.log_lines(match, names, viewer, moves)
    done = [move for move in moves if move.seq <= step]
    later = [move for move in moves if move.seq > step]
    return move_log.log_lines(match, names, viewer, done) + move_log.log_lines(
        match, names, None, later
    )


def replay_page(
    match: Match, user, at: str | None, eyes: str | None = None, token: str | None = None
) -> dict[str, Any]:
    """Everything the replay page shows this person at step ``at``.

    Raises ``Http404`` before the match has started or when ``at`` is not a
    number; an ``at`` out of range gives the nearest step, with
    ``redirect_to`` its own address.
    """
    if match.state is None:
        raise Http404(_("This match has no moves to replay yet."))
    try:
        step, moved = parse_step(at, match.version)
    except NoSuchStep:
        raise Http404(_("No such step of this match.")) from None
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    me = access.seat_of(match, user)
    viewer, eyes_key = _eyes(eyes, match, me.sight if me is not None else None)
    context: dict[str, Any] = {
        "match": match,
        "game": game,
        "step": step,
        "last_step": match.version,
        "redirect_to": _url(match, step, eyes_key, token) if moved else None,
    }
    if moved:
        return context
    moves = list(Move.objects.filter(match=match, seq__lte=match.version).order_by("seq"))
    entries = [(move.seq, move.seat, move.action) for move in moves]
    before, state = step_states(match, game, entries, step)
    # Step N highlights what changed from step N-1, seen by the same eyes.
    changed = changes(match, before, state, viewer) if before is not None else frozenset()
    names = [seat.display_name for seat in seats]
    log_names = [seat.player_name for seat in seats]
    view = presenters.seat_view(game, state, viewer, names, step)
    scene = presenter.scene(view, viewer, names, None)
    log = _log(match, log_names, viewer, moves, step)
    base = reverse("match_replay", args=[match.pk])
    review = reviews.shown(reviews.review_of(match), names) if match.is_over else None
    marks = review.marks if review is not None else {}
    for line in log:
        line.url = _step_url(base, line.seq, eyes_key, token)
        line.current = line.seq == step
        line.review = marks.get(line.seq)
    context.update(
        me=me,
        viewer=viewer,
        names=names,
        seat_refs=[ref_for_seat(seat, names[seat.index]) for seat in seats],
        board_template=scene.template,
        board=scene.board,
        private=scene.private,
        changed=changed,
        board_text=scene.words,
        log=log,
        this_step=next((line for line in log if line.seq == step), None),
        first=StepLink(0, _url(match, 0, eyes_key, token)),
        previous=StepLink(step - 1, _url(match, step - 1, eyes_key, token)) if step else None,
        next=StepLink(step + 1, _url(match, step + 1, eyes_key, token))
        if step < match.version
        else None,
        last=StepLink(match.version, _url(match, match.version, eyes_key, token)),
        token=token,
        review=review,
        can_request_review=reviews.refusal(match) is None
        and (review is None or review.status == "failed"),
        review_step=_review_step(match, game, before, marks.get(step), names),
        hints_used=[
            StepLink(hint.version, _url(match, hint.version, eyes_key, token))
            for hint in hints.used(match)
        ],
    )
    if match.is_over:
        context["eyes"] = [
            Eyes(
                "public",
                str(_("Spectators' view")),
                _url(match, step, "public", token),
                viewer is None,
            )
        ] + [
            Eyes(
                str(seat.index),
                names[seat.index],
                _url(match, step, str(seat.index), token),
                viewer == seat.index,
            )
            for seat in seats
        ]
    return context


@dataclass
class ReviewStep:
    """The review's word on the step shown, beside its board: the mark, the
    chance before and the choice the search preferred, in the mover's words."""

    mark: reviews.StepMark
    name: str
    best: str
    made: str


def _review_step(match: Match, game: Game, before, mark, names: list[str]) -> ReviewStep | None:
    """The step's mark with its two choices as the mover read them then (the
    match is over: every seat's view of it may be shown)."""
    if mark is None or before is None:
        return None
    presenter = presenters.get(match.game_key)
    view = presenters.seat_view(game, before, mark.seat, names, max(mark.step - 1, 0))

    def words(action) -> str:
        try:
            return " → ".join(str(label) for _key, label in presenter.action_steps(action, view))
        except Exception:  # noqa: BLE001 - a choice the presenter cannot word is not hidden
            return ""

    return ReviewStep(mark, names[mark.seat], words(mark.best), words(mark.made))


# The printable record's boards every N steps: the intervals offered, and how
# many boards one page may draw (each is a position rebuilt and drawn).
RECORD_EVERY = (5, 10, 25, 50, 100)
MAX_RECORD_BOARDS = 40


@dataclass
class RecordBoard:
    """A board the printable record draws: the position after ``step``, as a
    spectator sees it (never a seat's secret), with the board template's context."""

    step: int
    template: str
    board: dict | None


def parse_every(raw: str | None) -> int | None:
    """The record's "board every N steps": None when not asked for; one of
    ``RECORD_EVERY`` or ``ValueError`` with the message a person reads."""
    if raw is None or raw == "":
        return None
    if raw.isascii() and raw.isdigit() and len(raw) <= 3 and int(raw) in RECORD_EVERY:
        return int(raw)
    raise ValueError(_("Choose how often to draw the board: every 5, 10, 25, 50 or 100 steps."))


def _record_board(match: Match, game: Game, state, step: int, names: list[str]) -> RecordBoard:
    view = presenters.seat_view(game, state, None, names, step)
    scene = presenters.get(match.game_key).scene(view, None, names, None)
    return RecordBoard(step=step, template=scene.template, board=scene.board)


def record_boards(match: Match, game: Game, every: int, names: list[str]) -> list[RecordBoard]:
    """The board after every ``every``-th step before the last (the last is the
    record's final board), in order: one read of the log, each position
    rebuilt from the kept one before it (``state_at``)."""
    steps = list(range(every, match.version, every))
    if not steps:
        return []
    entries = list(
        Move.objects.filter(match=match, seq__lte=steps[-1])
        .order_by("seq")
        .values_list("seq", "seat", "action")
    )
    return [
        _record_board(match, game, state_at(match, game, entries, step), step, names)
        for step in steps
    ]


def print_page(
    match: Match, user, token: str | None = None, every: str | None = None
) -> dict[str, Any]:
    """The whole match for paper: players, options, every move in words, the
    result, the board at the end (or now) and, when ``every`` asks for it, the
    board every N steps; boards as a spectator sees them. ``status`` is 400
    with ``every_error`` for an interval not offered or too many boards (then
    only the final board is drawn)."""
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    me = access.seat_of(match, user)
    viewer = me.index if me is not None else None
    names = [seat.display_name for seat in seats]
    context: dict[str, Any] = {
        "match": match,
        "game": game,
        # Each player named links to their page (a bot's seat names its level).
        "seats": [(seat, ref_for_seat(seat, names[seat.index])) for seat in seats],
        "player_links": build.player_links(seats),
        "option_rows": build.option_rows(game, match.options),
        "time_per_move_label": build.time_per_move_label(match.time_per_move),
        "log": move_log.full_log(match, user),
        "final": None,
        "token": token,
        "final_board": None,
        "step_boards": [],
        "every": None,
        "every_choices": RECORD_EVERY,
        "every_error": "",
        "status": 200,
    }
    if match.is_over and match.result:
        context["final"] = end_banner.final_banner(match, seats, names, presenter, viewer)
    if match.state is None:
        return context
    context["final_board"] = _record_board(match, game, match.state, match.version, names)
    try:
        every_n = parse_every(every)
    except ValueError as error:
        context.update(every_error=str(error), status=400)
        return context
    if every_n is None:
        return context
    if match.version // every_n > MAX_RECORD_BOARDS:
        context.update(
            every_error=str(
                _(
                    "The record draws at most this many boards: %(n)s. Choose a larger "
                    "interval for a match this long."
                )
                % {"n": MAX_RECORD_BOARDS}
            ),
            status=400,
        )
        return context
    context["every"] = every_n
    context["step_boards"] = record_boards(match, game, every_n, names)
    return context


# -- Catching up --------------------------------------------------------------


@dataclass
class CatchUp:
    """The moves made since a player last looked, or since their own last move."""

    lines: list
    first_step: int
    replay_url: str


def last_look(match: Match, user):
    """When this player last opened the match page (read with the match: no query)."""
    me = access.seat_of(match, user)
    return me.last_seen_at if me is not None else None


def catch_up(match: Match, user, last_seen, recent: list[Move], log: list) -> CatchUp | None:
    """What the others did since ``last_seen`` or the player's own last move,
    whichever is later, among the panel's log tail (``recent``, its rows, and
    ``log``, their lines as this seat reads them): no query of its own. More
    than the tail's moves since then show as the tail, with the replay from
    the position before the first. None for a spectator or when nothing
    happened."""
    me = access.seat_of(match, user)
    if me is None or me.sight is None or match.state is None or not match.version or not recent:
        return None
    own = max(
        (
            m.seq
            for m in recent
            if m.seat == me.index and m.actor_kind == ActorKind.PLAYER and m.seq
        ),
        default=0,
    )
    since = {
        m.seq
        for m in recent
        if m.seq > own and m.seq > 0 and (last_seen is None or m.created_at > last_seen)
    }
    if not since:
        return None
    lines = [line for line in log if line.seq in since]
    first = min(since)
    return CatchUp(lines=lines, first_step=first, replay_url=_url(match, first - 1, None, None))


def catch_up_changes(
    match: Match, user, caught_up: CatchUp | None, recent: list[Move]
) -> frozenset:
    """The board's elements the moves of ``caught_up`` changed, as this player sees
    them: from the position before the first of them to now. At most one query
    (``state_after``), none while the kept position and the panel's log tail
    (``recent``) cover it. Nothing when that position is not at hand, or the log
    does not replay (a position arranged by hand in a test): the summary above
    the board still says what happened."""
    if caught_up is None:
        return frozenset()
    me = access.seat_of(match, user)
    game = registry.get(match.game_key)
    try:
        before = state_after(match, game, caught_up.first_step - 1, recent)
    except IllegalAction:
        return frozenset()
    if before is None:
        return frozenset()
    return changes(match, before, match.state, me.sight)

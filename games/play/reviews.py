"""The computer review of a finished match: asking for it (a service), computing
it (the ``games.tasks.review_match`` task on the ``reviews`` queue) and what
the replay and the end banner show of it (selectors).

A review is asked for once per match and kept (``MatchReview``, one row per
match): asking again shows the same one. Only a finished match is reviewed:
while a match is in play a review would tell its players what the strong
bot thinks of the position, so the service refuses it for a running (or an
aborted) match, whatever the address the request came through.

The work itself is ``games.engine.review`` (pure): each decision of each
seat, from that seat's view at that moment only. See docs/bots.md, "Reviews".
"""

from __future__ import annotations

import dataclasses
import logging
from dataclasses import dataclass
from datetime import timedelta

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from core.errors import Conflict, Forbidden
from games.dispatch import outbox
from games.engine import registry
from games.engine import review as engine_review
from games.engine.replay import is_moderation, is_opening
from games.models import Match, MatchReview, MatchStatus, Move, ReviewStatus

logger = logging.getLogger(__name__)

TASK = "games.tasks.review_match"
#: A review still pending this long after it was handed over is handed over
#: again when someone asks for it (the worker that took it may have died).
STALE_AFTER = timedelta(minutes=15)
UNDO_OPS = ("undo", "agreed_undo")


def budget() -> engine_review.ReviewBudget:
    """The review's budget per decision, from the settings (docs/bots.md)."""
    return engine_review.ReviewBudget(
        iterations=settings.SMOKI["REVIEW_ITERATIONS"], samples=settings.SMOKI["REVIEW_SAMPLES"]
    )


def refusal(match: Match) -> str | None:
    """Why this match cannot be reviewed, or None when it can."""
    if match.status == MatchStatus.FINISHED and match.state is not None:
        return None
    if match.status == MatchStatus.ABORTED:
        return _("An aborted match is not reviewed.")
    return _("This match is still being played: it can be reviewed once it has ended.")


# -- Writes -----------------------------------------------------------------------------


def request_review(*, user, match: Match) -> MatchReview:
    """Ask for the review of a finished match: the existing one, or a new one
    handed to the ``reviews`` queue. Refused (nothing written) for a person
    not logged in and for a match that has not finished."""
    if not user.is_authenticated:
        raise Forbidden(_("Please log in first."))
    why = refusal(match)
    if why is not None:
        raise Conflict(why)
    now = timezone.now()
    try:
        with transaction.atomic():
            review, created = MatchReview.objects.get_or_create(
                match=match, defaults={"requested_by": user, "queued_at": now}
            )
    except IntegrityError:  # asked twice at once: the other request made it
        return MatchReview.objects.get(match=match)
    stale = review.status == ReviewStatus.PENDING and (
        review.queued_at is None or review.queued_at < now - STALE_AFTER
    )
    if created or stale or review.status == ReviewStatus.FAILED:
        MatchReview.objects.filter(pk=review.pk).update(status=ReviewStatus.PENDING, queued_at=now)
        review.status = ReviewStatus.PENDING
        outbox.hand_over_after_commit(TASK, review.pk)
    return review


def effective_entries(match: Match) -> list[tuple[int, int, dict]]:
    """The match's actions in effect, as (step, seat, action), undos honoured."""
    entries: list[tuple[int, int, dict]] = []
    rows = Move.objects.filter(match=match).order_by("seq").values_list("seq", "seat", "action")
    for seq, seat, action in rows:
        if is_opening(action):
            continue
        if is_moderation(action):
            if action.get("op") in UNDO_OPS:
                del entries[len(entries) - int(action["count"]) :]
            continue
        entries.append((seq, seat, action))
    return entries


def compute(review_id: int) -> str:
    """Compute a pending review (the task's body); safe to run twice: a ready
    review is left as it is. Returns the review's status."""
    review = MatchReview.objects.select_related("match").filter(pk=review_id).first()
    if review is None or review.status == ReviewStatus.READY:
        return review.status if review else "missing"
    match = review.match
    used = budget()
    try:
        game = registry.get(match.game_key)
        start = game.setup_for(match.rules_version, match.n_seats, match.options, match.seed)
        decisions = engine_review.review_match(
            match.game_key, start, effective_entries(match), f"review:{match.pk}", used
        )
    except Exception:
        logger.exception("review of match %s failed", match.pk)
        MatchReview.objects.filter(pk=review.pk).update(
            status=ReviewStatus.FAILED, finished_at=timezone.now()
        )
        return ReviewStatus.FAILED
    MatchReview.objects.filter(pk=review.pk).update(
        status=ReviewStatus.READY,
        finished_at=timezone.now(),
        budget=dataclasses.asdict(engine_review.work(match.game_key, used)),
        decisions=[decision.to_json() for decision in decisions],
    )
    return ReviewStatus.READY


# -- Reads ------------------------------------------------------------------------------


def review_of(match: Match) -> MatchReview | None:
    """The match's review, if one was asked for (one query)."""
    return MatchReview.objects.filter(match=match).first()


def mark_words() -> dict[str, str]:
    """Each mark's name as a player reads it."""
    return {
        "doubtful": _("Doubtful choice"),
        "mistake": _("Mistake"),
        "blunder": _("Blunder"),
    }


def luck_words() -> dict[str, str]:
    return {"good": _("Good luck"), "bad": _("Bad luck")}


def percent(value: float | None) -> int | None:
    return None if value is None else round(value * 100)


def summary_line(summary: engine_review.SeatSummary) -> str:
    """A player's one line: "2 mistakes, 1 blunder, average loss 4 %"."""
    parts = []
    if summary.doubtful:
        n = summary.doubtful
        parts.append(ngettext("%(n)s doubtful choice", "%(n)s doubtful choices", n) % {"n": n})
    if summary.mistakes:
        n = summary.mistakes
        parts.append(ngettext("%(n)s mistake", "%(n)s mistakes", n) % {"n": n})
    if summary.blunders:
        n = summary.blunders
        parts.append(ngettext("%(n)s blunder", "%(n)s blunders", n) % {"n": n})
    if not parts:
        parts.append(_("no marked mistakes"))
    parts.append(_("average loss %(percent)s %%") % {"percent": percent(summary.average_loss)})
    if summary.good_luck or summary.bad_luck:
        parts.append(
            _("luck: %(good)s good, %(bad)s bad")
            % {"good": summary.good_luck, "bad": summary.bad_luck}
        )
    return ", ".join(parts)


@dataclass
class StepMark:
    """What the review says of one step, for the move list and the board."""

    step: int
    seat: int
    mark: str  # "", "doubtful", "mistake", "blunder"
    mark_label: str
    lucky: str  # "", "good", "bad"
    luck_label: str
    loss: int  # percent
    chance: int  # percent, before the decision
    after: int | None  # percent, after a roll or draw
    best: dict
    made: dict


@dataclass
class SeatLine:
    seat: int
    name: str
    line: str


@dataclass
class ChartLine:
    seat: int
    name: str
    points: str
    css: str


@dataclass
class ReviewChart:
    width: int
    height: int
    lines: list[ChartLine]
    y_labels: list[tuple[float, str]]
    x_left: int
    x_right: int
    baseline: float
    rows: list[tuple[int, list[str]]]  # step, each seat's chance ("" where it did not decide)


@dataclass
class ReviewShown:
    """The review as a page shows it."""

    status: str
    ready: bool
    lines: list[SeatLine]
    marks: dict[int, StepMark]
    chart: ReviewChart | None


def _decisions(review: MatchReview) -> list[engine_review.Decision]:
    return [engine_review.Decision(**row) for row in review.decisions]


def shown(review: MatchReview | None, names: list[str]) -> ReviewShown | None:
    """What a page shows of ``review`` (None when none was asked for)."""
    if review is None:
        return None
    if review.status != ReviewStatus.READY:
        return ReviewShown(review.status, False, [], {}, None)
    decisions = _decisions(review)
    words, luck = mark_words(), luck_words()
    marks = {
        d.step: StepMark(
            step=d.step,
            seat=d.seat,
            mark=d.mark,
            mark_label=words.get(d.mark, ""),
            lucky=d.lucky,
            luck_label=luck.get(d.lucky, ""),
            loss=percent(d.loss),
            chance=percent(d.chance),
            after=percent(d.after_chance),
            best=d.best,
            made=d.made,
        )
        for d in decisions
    }
    lines = [
        SeatLine(row.seat, names[row.seat], summary_line(row))
        for row in engine_review.summarize(decisions, len(names))
    ]
    return ReviewShown(review.status, True, lines, marks, chance_chart(decisions, names))


WIDTH = 360
HEIGHT = 160
PAD_LEFT = 36
PAD_RIGHT = 8
PAD_TOP = 10
PAD_BOTTOM = 16


def chance_chart(decisions: list[engine_review.Decision], names: list[str]) -> ReviewChart | None:
    """Each seat's estimated chance at each of its decisions, over the match's
    steps: data for the template's SVG and its table for screen readers."""
    if not decisions:
        return None
    last = max(d.step for d in decisions) or 1
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(step: int) -> float:
        return round(PAD_LEFT + inner_w * step / last, 1)

    def y(value: float) -> float:
        return round(PAD_TOP + inner_h * (1 - value), 1)

    lines = []
    for seat, name in enumerate(names):
        mine = [d for d in decisions if d.seat == seat]
        if mine:
            points = " ".join(f"{x(d.step)},{y(d.chance)}" for d in mine)
            lines.append(ChartLine(seat, name, points, f"chart-seat-{seat % 7}"))
    rows = []
    for d in decisions:
        cells = [""] * len(names)
        cells[d.seat] = f"{percent(d.chance)} %"
        rows.append((d.step, cells))
    return ReviewChart(
        width=WIDTH,
        height=HEIGHT,
        lines=lines,
        y_labels=[(y(v), f"{round(v * 100)} %") for v in (1.0, 0.5, 0.0)],
        x_left=PAD_LEFT,
        x_right=WIDTH - PAD_RIGHT,
        baseline=HEIGHT - PAD_BOTTOM,
        rows=rows,
    )


def banner_lines(match: Match, names: list[str]) -> tuple[ReviewShown | None, bool]:
    """The end banner's review: what is shown of it, and whether it may be
    asked for (a finished match without one). One query."""
    if refusal(match) is not None:
        return None, False
    review = review_of(match)
    return shown(review, names), review is None or review.status == ReviewStatus.FAILED

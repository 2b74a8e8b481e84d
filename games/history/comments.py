"""Comments on a finished match's replay: writes (services) and reads (selectors).

A comment belongs to one step of the replay (``seq`` 0 to ``match.version``)
and shows beside that step; the replay also lists every comment, each a link
to its step. Plain text only: templates escape it on output.

Who may comment, and only once the match is FINISHED (a match in play, or
aborted, has no comments: its replay is not a finished story yet):

- its players (a seat's user, now or once);
- anyone signed in, on a public match whose players allowed it
  (``Match.public_replay_comments``, off by default, switched by any of the
  players);
- never someone between whom and a player of the match there is a block,
  either way: blocked users do not comment on each other's matches' replays.

Comments are moderated as match chat is: a moderator hides one
(``games.moderation.actions.hide_replay_comment``, audited); a hidden one
stays for the audit but no longer reaches the replay. Each user writes at
most ``limits.REPLAY_COMMENT`` comments a minute on one match.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils.translation import gettext as _

from accounts.selectors import blocked_pairs
from core import limits
from core.errors import Forbidden, ServiceError
from games.models import (
    REPLAY_COMMENT_MAX_LENGTH,
    Match,
    MatchStatus,
    ReplayComment,
    Visibility,
)

MAX_LENGTH = REPLAY_COMMENT_MAX_LENGTH


@dataclass(frozen=True)
class Permission:
    """Whether this person may comment on this match's replay, and if not, why
    (said on the page instead of the form)."""

    allowed: bool
    reason: str = ""


# -- Reads ---------------------------------------------------------------------------------


def _player_ids(match: Match) -> set[int]:
    return {seat.user_id for seat in match.seats.all() if seat.user_id is not None}


def is_player(user, match: Match) -> bool:
    """Whether ``user`` holds (or held) a seat of ``match``: they decide who comments."""
    return bool(user is not None and user.is_authenticated and user.pk in _player_ids(match))


def permission(user, match: Match) -> Permission:
    """May ``user`` comment on the replay of ``match`` (see the module's rules)?"""
    if match.status != MatchStatus.FINISHED:
        return Permission(False, _("Comments open once the match is finished."))
    if user is None or not user.is_authenticated:
        return Permission(False, _("Log in to comment."))
    players = _player_ids(match)
    if user.pk not in players and not (
        match.visibility == Visibility.PUBLIC and match.public_replay_comments
    ):
        return Permission(False, _("Only the players of this match comment on its replay."))
    if any(user.pk in pair for pair in blocked_pairs(players | {user.pk})):
        # Said without naming who blocked whom, as the chat does.
        return Permission(False, _("Comments on this replay are closed to you."))
    return Permission(True)


def visible_comments(match: Match) -> list[ReplayComment]:
    """Every comment players may read, in step order (one query; a match in
    play has none to show)."""
    if match.status != MatchStatus.FINISHED:
        return []
    return list(
        ReplayComment.objects.filter(match=match, hidden_at__isnull=True).select_related("user")
    )


# -- Writes --------------------------------------------------------------------------------


def clean_text(text) -> str:
    """The comment's text with runs of white space made one space, or a refusal."""
    text = " ".join(text.split()) if isinstance(text, str) else ""
    if not text:
        raise ServiceError(_("Write something first."))
    if len(text) > MAX_LENGTH:
        raise ServiceError(_("Comments are at most %(n)d characters.") % {"n": MAX_LENGTH})
    return text


def post_comment(user, match: Match, step: int, text) -> ReplayComment:
    """Add ``user``'s comment on step ``step`` of the finished ``match``.

    The step must be one of the replay's (0 to ``match.version``); the rate
    limit is counted only for an otherwise valid comment."""
    allowed = permission(user, match)
    if not allowed.allowed:
        raise Forbidden(allowed.reason)
    if not isinstance(step, int) or not 0 <= step <= match.version:
        raise ServiceError(_("There is no such step in this match."))
    text = clean_text(text)
    limits.check(
        limits.REPLAY_COMMENT,
        user.pk,
        match.pk,
        message=_("You are writing very fast; wait a minute."),
    )
    return ReplayComment.objects.create(match=match, step=step, user=user, text=text)


def set_public_comments(user, match: Match, allowed: bool) -> None:
    """A player of the finished public ``match`` lets anyone signed in comment
    on its replay, or takes that back (the comments already written stay)."""
    if not is_player(user, match):
        raise Forbidden(_("Only the players of this match decide who comments on it."))
    if match.status != MatchStatus.FINISHED:
        raise Forbidden(_("Comments open once the match is finished."))
    if match.visibility != Visibility.PUBLIC:
        raise ServiceError(_("Only a public match's replay can take comments from anyone."))
    with transaction.atomic():
        Match.objects.filter(pk=match.pk).update(public_replay_comments=bool(allowed))
    match.public_replay_comments = bool(allowed)


# -- What the replay page shows ------------------------------------------------------------


@dataclass(frozen=True)
class ShownComment:
    """A comment as the replay shows it: who, what, and the address of its step."""

    pk: int
    step: int
    author: str
    text: str
    created_at: object
    url: str
    here: bool


def replay_context(match: Match, user, step: int, step_url) -> dict:
    """The replay page's comments at ``step``: those of this step, every one
    (each with ``step_url(n)``, its step's address), and what this person may
    do (write, or as a player open the replay to everyone's comments)."""
    shown = [
        ShownComment(
            comment.pk,
            comment.step,
            comment.user.username,
            comment.text,
            comment.created_at,
            step_url(comment.step),
            comment.step == step,
        )
        for comment in visible_comments(match)
    ]
    finished = match.status == MatchStatus.FINISHED
    return {
        "comments": shown,
        "step_comments": [comment for comment in shown if comment.here],
        "comments_open": finished,
        "comment_permission": permission(user, match) if finished else None,
        "comment_max_length": MAX_LENGTH,
        "may_open_comments": finished
        and match.visibility == Visibility.PUBLIC
        and is_player(user, match),
    }

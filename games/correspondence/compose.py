"""Composing a notification's email: its subject and sentences in the
player's language and zone, the board in words and what happened since the
player's own last move, the player's first choices as signed one-move
links, the board as a picture, and the unsubscribe link and headers.

Only the mail worker composes (``games.correspondence.delivery``), never a
web request; a kind of news another app registered is worded by that app
(``games.dispatch.kinds``)."""

from __future__ import annotations

import logging

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from accounts.models import EMAIL_PREFERENCES
from games.correspondence import board_picture, email_moves
from games.dispatch import kinds
from games.dispatch.kinds import absolute
from games.dispatch.notifications import UNDO_TAG
from games.lobby import invitations
from games.models import (
    Match,
    Move,
    Notification,
    NotificationKind,
)
from games.panel import presenters
from games.panel.formats import local_moment, one_full_stop
from games.play import standing

logger = logging.getLogger(__name__)

UNSUBSCRIBE_SALT = "smoki.unsubscribe"


def unsubscribe_token(user, field: str) -> str:
    return signing.dumps({"u": user.pk, "f": field}, salt=UNSUBSCRIBE_SALT)


def read_unsubscribe_token(token: str) -> tuple[int, str] | None:
    try:
        data = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    if not isinstance(data, dict) or data.get("f") not in {*EMAIL_PREFERENCES, "all"}:
        return None
    return data["u"], data["f"]


def build_email(row: Notification) -> EmailMultiAlternatives:
    user = row.user
    profile = user.profile
    field = kinds.preference_of(row.kind)
    unsubscribe = absolute(reverse("unsubscribe", args=[unsubscribe_token(user, field)]))
    with translation.override(profile.language), timezone.override(profile.timezone):
        context = message_context(row)
        if row.match is not None and (
            row.kind == NotificationKind.MATCH_STARTED
            or (row.kind == NotificationKind.YOUR_TURN and row.version == 0)
        ):
            # The match's start: what it is part of (a tournament's round),
            # said here rather than in an email of its own.
            context["lines"] = kinds.start_headline(row.match) + context["lines"]
        position = email_position(row)
        picture = board_picture_of(row) if position else None
        context.update(
            unsubscribe_url=unsubscribe,
            preferences_url=absolute(reverse("notification_settings")),
            name=profile.name,
            choices=email_choices(row),
            board_cid=BOARD_CID if picture else "",
            **position,
        )
        text = render_to_string("emails/notification.txt", context)
        html = render_to_string("emails/notification.html", context)
    message = make_message(user, context["subject"], text, html, unsubscribe, email_ref(row))
    if picture:
        attach_inline_png(message, picture, BOARD_CID)
    return message


BOARD_CID = "board@smoki"


def board_picture_of(row: Notification, width: int = board_picture.PICTURE_WIDTH) -> bytes | None:
    """The seat's board as a PNG for a "your turn" or reminder email, drawn
    here, in the mail worker (``games.correspondence.board_picture``); None when it cannot
    be drawn (the email then goes without it)."""
    seat = next((s for s in row.match.seats.all() if s.user_id == row.user_id), None)
    if seat is None or seat.sight is None:  # a player who resigned sees no seat's board
        return None
    try:
        return board_picture.board_png(row.match, seat.index, width=width)
    except Exception:  # a picture is a nicety: the email goes without it
        logger.exception("The board picture of match %s could not be drawn", row.match_id)
        return None


def attach_inline_png(message: EmailMultiAlternatives, png: bytes, cid: str) -> None:
    """Show ``png`` inside the HTML part as ``cid:<cid>`` (several may be added)."""
    if not isinstance(message, MessageWithPicture):
        message.__class__ = MessageWithPicture
        message.inline_pngs = []
    message.inline_pngs.append((png, cid))


class MessageWithPicture(EmailMultiAlternatives):
    """An email whose HTML part carries pictures: the HTML becomes
    multipart/related (the HTML, then the pictures), beside the plain text."""

    inline_pngs: list[tuple[bytes, str]]

    def _add_bodies(self, msg):
        msg = super()._add_bodies(msg)
        html = msg.get_body(preferencelist=("html",))
        for png, cid in self.inline_pngs:
            html.add_related(
                png, maintype="image", subtype="png", cid=f"<{cid}>", disposition="inline"
            )
        return msg


RECENT_MOVES_IN_EMAIL = 30


def email_position(row: Notification) -> dict:
    """For a "your turn" or reminder email: the board in words as the
    player's seat sees it (the page's text alternative), and what happened
    since the player's own last move, in the log's words."""
    from games.engine import registry
    from games.engine.replay import MODERATION

    match = row.match
    if (
        row.kind not in (NotificationKind.YOUR_TURN, NotificationKind.REMINDER)
        or match is None
        or match.status != "active"
        or match.state is None
    ):
        return {}
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    seat = next((s for s in seats if s.user_id == row.user_id), None)
    if seat is None or seat.sight is None:
        return {}
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    names = [s.player_name for s in seats]
    view = presenters.seat_view(game, match.state, seat.index, names, match.version)
    board = [str(line) for line in presenter.describe_board(view, names)]
    last_own = (
        Move.objects.filter(match=match, seat=seat.index, actor_kind="player")
        .order_by("-seq")
        .values_list("seq", flat=True)
        .first()
    ) or 0
    recent = []
    moves = Move.objects.filter(match=match, seq__gt=last_own).order_by("seq")
    for move in moves[:RECENT_MOVES_IN_EMAIL]:
        said = [
            str(presenter.describe_event(event, names))
            for event in move.events
            if event.get("private_to") in (None, seat.index) and event.get("type") != MODERATION
        ]
        if not said:
            continue
        who = (
            names[move.seat]
            if move.seat is not None
            and move.seat < len(names)
            and not presenter.SENTENCES_NAME_THE_ACTOR
            else ""
        )
        recent.append((f"{who}: " if who else "") + " ".join(said))
    return {"board_lines": board, "recent_lines": recent}


def email_choices(row: Notification) -> list[tuple[str, str]]:
    """The player's first decision as (words, address) pairs, for a "your
    turn" email still current (``email_moves.choice_links``: a whole move
    links to its confirmation page, a first step of a longer move to the match
    page at that step). Empty when there are more than ``MAX_CHOICES``, or
    the position moved on since the row was written."""
    match = row.match
    if (
        row.kind != NotificationKind.YOUR_TURN
        or match is None
        or match.status != "active"
        or match.version != row.version
        or match.deadline is None
        or match.state is None
    ):
        return []
    seats = list(match.seats.all())
    seat = next((s for s in seats if s.user_id == row.user_id), None)
    if seat is None or seat.sight is None:  # a player who resigned has no choices to see
        return []
    return [
        (label, absolute(url))
        for label, url in email_moves.choice_links(match, seats, seat.index, row.user_id)
    ]


def email_ref(row: Notification) -> str:
    """What one email is about: the row, and the version and tag it was brought
    up to. The unread row of a (user, match, kind) is sent again for each new
    turn or later reminder, each a different email; the same ref twice is the
    same email twice (the ``X-Smoki-Ref`` header the fault run counts by)."""
    return f"{row.pk}-v{row.version}" + (f"-{row.tag}" if row.tag else "")


def make_message(user, subject, text, html, unsubscribe_url, ref) -> EmailMultiAlternatives:
    # A header is one line: a name saved before names were checked must not
    # break the message.
    subject = " ".join(subject.split())
    message = EmailMultiAlternatives(
        subject=settings.ACCOUNT_EMAIL_SUBJECT_PREFIX + subject,
        body=text,
        to=[user.email],
        headers={
            "List-Unsubscribe": f"<{unsubscribe_url}>",
            "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
            "X-Smoki-Ref": str(ref),
        },
    )
    message.attach_alternative(html, "text/html")
    return message


def message_context(row: Notification, terms: dict | None = None) -> dict:
    """Subject and sentences for one notification, in the active language and
    zone. ``terms``: the invitations' terms read already for a list of rows
    (``invitations.terms_for``), else read here for an invitation."""
    from games.engine import registry

    if kinds.is_news(row.kind):
        return kinds.news_context(row)
    match = row.match
    title = registry.get(match.game_key).title
    url = absolute(reverse("match_detail", args=[match.pk]))
    what = {"game": title, "id": match.pk}
    deadline = local_moment(match.deadline)
    lines: list[str] = []
    if row.kind == NotificationKind.YOUR_TURN:
        subject = _("Your turn in %(game)s #%(id)s") % what
        if row.version == 0:  # the first turn: no "match started" email came
            lines.append(_("All seats are taken and %(game)s #%(id)s has started.") % what)
        lines.append(_("It is your turn in %(game)s #%(id)s.") % what)
        if deadline:
            lines.append(_("Please move before %(deadline)s.") % {"deadline": deadline})
    elif row.kind == NotificationKind.REMINDER:
        subject = _("Reminder: your move in %(game)s #%(id)s") % what
        lines.append(
            _("Your time to move in %(game)s #%(id)s runs out at %(deadline)s.")
            % {**what, "deadline": deadline}
        )
    elif row.kind == NotificationKind.TIMED_OUT:
        subject = _("You ran out of time in %(game)s #%(id)s") % what
        lines.append(_("Your time ran out in %(game)s #%(id)s.") % what)
        lines.append(describe_timeout(match, row.user))
    elif row.kind == NotificationKind.MATCH_STARTED:
        subject = _("%(game)s #%(id)s has started") % what
        lines.append(_("All seats are taken and %(game)s #%(id)s has started.") % what)
    elif row.kind == NotificationKind.MATCH_FINISHED and match.ended_early_by is not None:
        subject = _("%(game)s #%(id)s was aborted") % what
        lines.append(
            _(
                "%(game)s #%(id)s ended before each player had moved, so it is aborted "
                "and no rating changes."
            )
            % what
        )
    elif row.kind == NotificationKind.MATCH_FINISHED:
        subject = _("%(game)s #%(id)s is over") % what
        lines.append(_("%(game)s #%(id)s is over. Final standings:") % what)
        for seat in sorted(match.seats.all(), key=lambda s: (s.rank or 99, s.index)):
            score = "" if seat.score is None else f" ({seat.score})"
            lines.append(f"{seat.rank}. {seat.display_name}{score}")
        changes = standing.changes_in(match)
        change = changes.get(row.user_id)
        if change is not None:
            lines.append(change.sentence)
            if change.why:
                lines.append(change.why)
        elif note := standing.uncounted_note(match, changes) or standing.abandoned_note(
            match, match.seats.all(), changes, row.user_id
        ):
            lines.append(note)
    elif row.kind == NotificationKind.UNDO_REQUEST:
        seat_index = int(row.tag[len(UNDO_TAG) :]) if row.tag.startswith(UNDO_TAG) else -1
        asker = next((s for s in match.seats.all() if s.index == seat_index), None)
        who = asker.player_name if asker else "?"
        subject = _("%(who)s asks to take back a move in %(game)s #%(id)s") % {
            **what,
            "who": who,
        }
        lines.append(
            _(
                "%(who)s asks to take back their last move in %(game)s #%(id)s. "
                "Nothing new was revealed since; the move is taken back only if every "
                "other player agrees."
            )
            % {**what, "who": who}
        )
        lines.append(_("Agree or refuse on the match page or in your notifications."))
    elif row.kind == NotificationKind.MENTION:
        about = row.about or {}
        who = about.get("who", "?")
        subject = _("%(who)s mentions you in %(game)s #%(id)s") % {**what, "who": who}
        # Only the chat line, never anything of the match a seat keeps secret;
        # a line a moderator hid since is no longer kept (``hide_message``).
        if about.get("text"):
            lines.append(
                _("%(who)s writes in the chat of %(game)s #%(id)s: %(text)s")
                % {**what, "who": who, "text": about["text"]}
            )
    elif row.kind == NotificationKind.MODERATION:
        subject = _("A moderator changed %(game)s #%(id)s") % what
        lines.append(
            _("A moderator changed %(game)s #%(id)s. The match log says what was done.") % what
        )
    else:
        # An invitation that is more than a seat (a ladder's challenge) says
        # what it is, by when, what each answer does, and where it is answered.
        if terms is None:
            terms = invitations.terms_for(row.user, [match.pk])
        if invitation_terms := terms.get(match.pk):
            subject = invitation_terms.subject
            lines.extend(invitation_terms.lines)
            url_line = _("Accept or decline on this page: %(url)s")
            lines.append(url_line % {"url": absolute(invitation_terms.page_url)})
        else:
            inviter = match.invitations.filter(invited_user=row.user).first()
            who = inviter.invited_by.profile.name if inviter else match.created_by.username
            subject = _("%(who)s invites you to %(game)s #%(id)s") % {**what, "who": who}
            lines.append(
                _("%(who)s invites you to play %(game)s (#%(id)s).") % {**what, "who": who}
            )
    # A moment that ends a sentence ends with one full stop ("6 p.m.", not "6 p.m..").
    return {
        "subject": str(subject),
        "lines": [one_full_stop(line) for line in lines],
        "match_url": url,
    }


def describe_timeout(match: Match, user) -> str:
    seat = match.seats.filter(user=user).first()
    from games.play.clock import loses_on_time

    if match.ended_early_by is not None:
        return str(_("It ended before each player had moved, so the match is aborted and unrated."))
    if loses_on_time(match):
        return str(_("Under this match's rules that is a loss on time."))
    if seat is not None and seat.status == "bot":
        return str(_("After three missed deadlines a bot has taken over your seat."))
    return str(
        _("A bot made the move for you. Missed deadlines so far: %(n)s of 3.")
        % {"n": seat.strikes if seat else 0}
    )

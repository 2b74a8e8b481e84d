"""Private notes per match and player: plans, reminders, what an opponent holds.

Seen only by their author; kept while the match exists. Only a player seated
in the match keeps notes on it.
"""

from __future__ import annotations

from django.utils.translation import gettext as _

from core.errors import Forbidden, ServiceError
from games.models import NOTE_MAX_LENGTH, Match, Note


def note_for(match: Match, user, seated: bool) -> str | None:
    """The user's note on the match, "" if none yet, None if they may keep none.

    ``seated``: the page already knows whether the user holds a seat (one
    query less on every match page)."""
    if not user.is_authenticated or not seated:
        return None
    note = Note.objects.filter(match=match, user=user).only("text").first()
    return note.text if note else ""


def save_note(user, match: Match, text: str) -> Note:
    if not user.is_authenticated or not match.seats.filter(user=user).exists():
        raise Forbidden(_("Only the players of this match keep notes on it."))
    text = text.replace("\x00", "").strip()
    if len(text) > NOTE_MAX_LENGTH:
        raise ServiceError(_("Notes are limited to %(n)d characters.") % {"n": NOTE_MAX_LENGTH})
    note, _created = Note.objects.update_or_create(match=match, user=user, defaults={"text": text})
    return note

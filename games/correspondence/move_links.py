"""Moves offered in the "your turn" email, as signed links.

A link's token names one action for one seat of one match at one version,
signed by the site (``django.core.signing``) and valid until the turn's
deadline. It is read without the database; ``games.correspondence.email_moves`` checks it
against the match and applies it, once: the move bumps the version, so the
same link (or any other link of that email) then finds the position changed.
Following a link never changes anything by itself: it opens a page with one
button, because mail scanners open links.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime

from django.core import signing
from django.urls import reverse

SALT = "smoki.email-move"
MAX_CHOICES = 12  # more choices than this and the email only links to the match


@dataclass(frozen=True)
class MoveLink:
    match_id: int
    seat: int
    user_id: int
    version: int
    action: dict
    expires: float  # the turn's deadline, a POSIX timestamp


def make_token(
    *, match_id: int, seat: int, user_id: int, version: int, action: dict, deadline: datetime
) -> str:
    payload = {
        "m": match_id,
        "s": seat,
        "u": user_id,
        "v": version,
        "a": action,
        "d": int(deadline.timestamp()),
    }
    return signing.dumps(payload, salt=SALT, compress=True)


def read_token(token: str) -> MoveLink | None:
    """The link a token names, or None for a forged, truncated or malformed one."""
    if not isinstance(token, str) or len(token) > 4000:
        return None
    try:
        data = signing.loads(token, salt=SALT)
    except (signing.BadSignature, ValueError, UnicodeError, json.JSONDecodeError):
        return None
    try:
        link = MoveLink(
            match_id=int(data["m"]),
            seat=int(data["s"]),
            user_id=int(data["u"]),
            version=int(data["v"]),
            action=data["a"],
            expires=float(data["d"]),
        )
    except (KeyError, TypeError, ValueError):
        return None
    return link if isinstance(link.action, dict) else None


def url_for(token: str, match_id: int) -> str:
    return reverse("email_move", args=[match_id, token])

"""A move made from the "your turn" email, through a signed link.

``look`` tells the confirmation page what a link would do (and changes
nothing: mail scanners open links); ``play`` applies it when the player
presses the page's one button. The player need not be logged in, and is not
logged in by it: the token stands for that one action of that seat at that
version, and the move goes through the same road as any other
(``services.submit_player_action``).
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from django.contrib.auth import get_user_model
from django.utils.translation import gettext as _

from core import limits
from core.errors import Conflict, NotFound
from games.correspondence import move_links
from games.engine import registry
from games.models import Match, MatchStatus, Move, SeatStatus
from games.panel import presenters
from games.play.services import submit_player_action

VALID, STALE, EXPIRED = "valid", "stale", "expired"


@dataclass
class LinkLook:
    match: Match
    status: str  # VALID, STALE or EXPIRED
    label: str  # the move in words, as the match page words it ("" unless valid)
    link: move_links.MoveLink


def _read(pk: int, token: str) -> tuple[move_links.MoveLink, Match]:
    link = move_links.read_token(token)
    if link is None or link.match_id != pk:
        raise NotFound(_("This link is not valid."))
    match = Match.objects.filter(pk=pk).first()
    if match is None:
        raise NotFound(_("This link is not valid."))
    return link, match


def _seats(match: Match) -> list:
    return list(match.seats.select_related("user__profile").order_by("index"))


def _status(link: move_links.MoveLink, match: Match, seats: list) -> str:
    if time.time() > link.expires:
        return EXPIRED
    seat = next((s for s in seats if s.index == link.seat), None)
    if (
        match.status != MatchStatus.ACTIVE
        or match.version != link.version
        or seat is None
        or seat.user_id != link.user_id
        or seat.status != SeatStatus.PLAYING
    ):
        return STALE
    return VALID


def describe(match: Match, seats: list, seat: int, action: dict) -> str:
    """The action in the words of the match page's choices, step by step."""
    game = registry.get(match.game_key)
    presenter = presenters.get(match.game_key)
    names = [s.display_name for s in seats]
    view = presenters.seat_view(game, match.state, seat, names, match.version)
    return " → ".join(str(label) for _key, label in presenter.action_steps(action, view))


def look(pk: int, token: str) -> LinkLook:
    """What the link would do now; raises NotFound for a bad link."""
    link, match = _read(pk, token)
    seats = _seats(match)
    status = _status(link, match, seats)
    label = describe(match, seats, link.seat, link.action) if status == VALID else ""
    return LinkLook(match=match, status=status, label=label, link=link)


def play(pk: int, token: str) -> Move:
    """Apply the link's move, once. Raises a ``ServiceError`` with the reason
    (the position changed, the turn's time is over, too many tries)."""
    link, match = _read(pk, token)
    limits.check(
        limits.EMAIL_MOVE,
        link.user_id,
        message=_("You have used many email links lately; wait a few minutes."),
    )
    status = _status(link, match, _seats(match))
    if status == EXPIRED:
        raise Conflict(_("This link has expired: the turn's time is over."))
    if status == STALE:
        raise Conflict(_("The position has changed since this email was sent."))
    user = get_user_model().objects.get(pk=link.user_id)
    return submit_player_action(match.pk, user, link.action, link.version)

"""A move made from the "your turn" email, through a signed link.

``look`` tells the confirmation page what a link would do (and changes
nothing: mail scanners open links), in which game, against whom, on which
board; ``play`` applies it when the player presses the page's one button,
and ``after`` says what comes next: the player's next choices when the turn
goes on (as signed links again), else whom the match waits for. The player need not be logged in, and is not
logged in by it: the token stands for that one action of that seat at that
version, and the move goes through the same road as any other
(``services.submit_player_action``).
"""

from __future__ import annotations

import json
import time
from dataclasses import dataclass, field
from urllib.parse import urlencode

from django.contrib.auth import get_user_model
from django.urls import reverse
from django.utils.translation import gettext as _

from accounts.bots import is_bot_account
from accounts.refs import PlayerRef, ref_for_seat
from core import limits
from core.errors import Conflict, Forbidden, NotFound
from games.correspondence import board_picture, move_links
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
    title: str = ""  # the game's title, in the active language
    opponents: list[PlayerRef] = field(default_factory=list)  # the other seats
    board: str = ""  # the seat's board as the match page draws it (valid links only)


@dataclass
class NextStep:
    """What comes after a move made from a link: the turn goes on (with the
    seat's next choices), the match waits for others, or it is over."""

    my_turn: bool = False
    choices: list[tuple[str, str]] = field(default_factory=list)  # (words, address)
    waiting_for: list[PlayerRef] = field(default_factory=list)
    over: bool = False
    board: str = ""  # the seat's board after the move


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
    """What the link would do now; raises NotFound for a bad link. A valid
    link also shows the game, the opponents and the seat's board (the seat's
    own view: the link stands for that seat's player)."""
    link, match = _read(pk, token)
    seats = _seats(match)
    status = _status(link, match, seats)
    seen = LinkLook(
        match=match,
        status=status,
        label="",
        link=link,
        title=str(registry.get(match.game_key).title),
        opponents=[ref_for_seat(s) for s in seats if s.index != link.seat],
    )
    if status == VALID:
        seen.label = describe(match, seats, link.seat, link.action)
        seen.board = board_picture.board_html(match, link.seat, seats)
    return seen


def choice_links(match: Match, seats: list, seat: int, user_id: int) -> list[tuple[str, str]]:
    """The seat's first decision as (words, path) pairs: a whole move links
    to its confirmation page (a signed link), a first step of a longer move to
    the match page at that step. Empty when the seat is not to move or has
    more than ``move_links.MAX_CHOICES`` choices."""
    game = registry.get(match.game_key)
    if (
        match.status != MatchStatus.ACTIVE
        or match.deadline is None
        or seat not in game.current_seats(match.state)
    ):
        return []
    presenter = presenters.get(match.game_key)
    names = [s.display_name for s in sorted(seats, key=lambda s: s.index)]
    view = presenters.seat_view(game, match.state, seat, names, match.version)
    level = presenters.choice_level(game.legal_actions(match.state, seat), view, presenter, [])
    if not level.choices or len(level.choices) > move_links.MAX_CHOICES:
        return []
    detail = reverse("match_detail", args=[match.pk])
    choices = []
    for choice in level.choices:
        if choice.action_json is None:
            url = f"{detail}?{urlencode({'path': choice.path})}"
        else:
            token = move_links.make_token(
                match_id=match.pk,
                seat=seat,
                user_id=user_id,
                version=match.version,
                action=json.loads(choice.action_json),
                deadline=match.deadline,
            )
            url = move_links.url_for(token, match.pk)
        choices.append((str(choice.label), url))
    return choices


def after(pk: int, token: str) -> NextStep:
    """What comes after the link's move: the seat's next choices while the
    turn goes on (Drako's second action), else whom the match waits for, or
    that it is over; with the seat's board as it is now."""
    link, match = _read(pk, token)
    seats = _seats(match)
    step = NextStep(board=board_picture.board_html(match, link.seat, seats))
    if match.status != MatchStatus.ACTIVE:
        step.over = True
        return step
    to_move = set(registry.get(match.game_key).current_seats(match.state))
    if link.seat in to_move:
        step.my_turn = True
        step.choices = choice_links(match, seats, link.seat, link.user_id)
    step.waiting_for = [ref_for_seat(s) for s in seats if s.index in to_move - {link.seat}]
    return step


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
    user = get_user_model().objects.select_related("profile").get(pk=link.user_id)
    if is_bot_account(user):  # a bot account plays through the API alone (accounts.bots)
        raise Forbidden(_("A bot account plays through the API only: its pages are read-only."))
    return submit_player_action(match.pk, user, link.action, link.version)

"""The API's lobby and ladders (``/api/v1/``, on ``endpoints.api``): creating
a match or a challenge to a player, the invitations sent and received with
accept and decline, the ladders with their tables, joining, leaving and
challenging a rung. Thin functions over the pages' own form, services and
selectors, so the API refuses exactly what the pages do. See ``docs/api.md``."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch
from django.utils.translation import gettext as _
from ninja import Schema, Status

from accounts.selectors import not_accepting
from api import payloads
from api.auth import need
from api.endpoints import _match, api
from api.errors import ApiError
from core import limits
from core.errors import Conflict
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Invitation, Match, MatchStatus, Seat
from games.web.forms import CreateMatchForm
from ladders import selectors as ladder_selectors
from ladders import services as ladder_services

# -- Creating a match or a challenge ------------------------------------------------


class NewMatch(Schema):
    """A new match as the new-match form takes it: times in seconds, the
    game's options by key (each game's choices: ``GET /games``)."""

    game: str
    players: int
    visibility: str = ""  # none: public, or private for a challenge (as on the page)
    options: dict[str, Any] = {}
    time_per_move: int = 3 * 86400
    time_bank: int = 0
    time_bank_increment: int = 0
    timeout_policy: str = ""
    takeover_level: str = ""
    rated: bool | None = None
    min_rating: int | None = None
    max_rating: int | None = None
    min_reliability: int | None = None
    vacation_allowed: bool = True
    weekend_pause: bool = False
    invite: str = ""


def _form_data(data: NewMatch) -> dict:
    """The JSON as the new-match form's fields (each option as its field)."""
    visibility = data.visibility or ("private" if data.invite.strip() else "public")
    fields = {
        "game": data.game,
        "n_seats": data.players,
        "visibility": visibility,
        "time_per_move": data.time_per_move,
        "time_bank": data.time_bank,
        "time_bank_increment": data.time_bank_increment,
        "timeout_policy": data.timeout_policy,
        "takeover_level": data.takeover_level,
        "min_rating": "" if data.min_rating is None else data.min_rating,
        "max_rating": "" if data.max_rating is None else data.max_rating,
        "min_reliability": "" if data.min_reliability is None else data.min_reliability,
        "invite": data.invite,
    }
    # A checkbox is sent only when ticked; rated defaults as on the form
    # (ticked unless the match is private or for friends).
    rated = data.rated if data.rated is not None else visibility == "public"
    for name, ticked in (
        ("rated", rated),
        ("vacation_allowed", data.vacation_allowed),
        ("weekend_pause", data.weekend_pause),
    ):
        if ticked:
            fields[name] = "on"
    for key, value in data.options.items():
        # The form's choices are the values' text: "True", "random".
        fields[f"opt_{data.game}_{key}"[:200]] = str(value)
    return fields


def _form_refusal(form: CreateMatchForm) -> ApiError:
    """The form's own messages, by field (``options`` for a game's option)."""
    fields: dict[str, list[str]] = {}
    for name, errors in form.errors.items():
        key = "options" if name.startswith("opt_") else "players" if name == "n_seats" else name
        fields.setdefault(key, []).extend(str(error) for error in errors)
    first = next(iter(fields.values()))[0]
    return ApiError(400, "bad_input", first, fields=fields)


def _unknown_options(data: NewMatch, form: CreateMatchForm) -> list[str]:
    names = set(form.option_fields.get(data.game, []))
    return [key for key in data.options if f"opt_{data.game}_{key}" not in names]


@api.post("/matches", response={201: dict})
def create_match(request, data: NewMatch):
    """Open a match (public, for friends or private) with me in the first
    seat; with ``invite``, a challenge: that player is invited at once, or
    nothing is created. Validated by the new-match form, made by the lobby's
    services, limited as on the page."""
    need(request, "challenge:write")
    user = request.auth.user
    invite = data.invite.strip()[:150]
    if invite:
        _invitee, refusal = invitations.challenge_refusal(user, invite)
        if refusal:
            status = 403 if refusal == not_accepting() else 400
            raise ApiError(status, "refused" if status == 400 else "forbidden", refusal)
    form = CreateMatchForm(_form_data(data), invite=invite)
    if not form.is_valid():
        raise _form_refusal(form)
    unknown = _unknown_options(data, form)
    if unknown:
        raise ApiError(
            400,
            "bad_input",
            _("%(game)s has no option %(option)s.")
            % {"game": data.game, "option": ", ".join(sorted(unknown))[:200]},
            fields={"options": unknown[:20]},
        )
    limits.check(
        limits.MATCH, user.pk, message=_("You have created many matches lately; wait an hour.")
    )
    kwargs = form.service_kwargs()
    if invite:
        match = lobby.challenge(user=user, username=invite, **kwargs)
    else:
        match = lobby.create_match(user=user, **kwargs)
    match = Match.objects.defer("state").prefetch_related("seats__user__profile").get(pk=match.pk)
    me = next(seat for seat in match.seats.all() if seat.user_id == user.pk)
    return Status(201, {**payloads.summary(match, me), "invited": invite or None})


# -- Invitations ------------------------------------------------------------------------


def _invitation(invitation: Invitation, user, who: str) -> dict:
    match = invitation.match
    me = next((s for s in match.seats.all() if s.user_id == user.pk), None)
    other = invitation.invited_user if who == "to" else invitation.invited_by
    return {
        **payloads.summary(match, me),
        "options": match.options,
        "time_per_move_seconds": int(match.time_per_move.total_seconds()),
        "rated": match.rated,
        "visibility": match.visibility,
        who: other.username,
        "invited_at": payloads.moment(invitation.created_at),
    }


def _open_invitations(**where):
    seats = Prefetch("match__seats", queryset=Seat.objects.select_related("user__profile"))
    return (
        Invitation.objects.filter(match__status=MatchStatus.OPEN, **where)
        .select_related("match", "invited_by", "invited_user")
        .defer("match__state")
        .prefetch_related(seats)
        .order_by("-created_at", "-pk")[: payloads.PAGE]
    )


@api.get("/invitations")
def invitation_lists(request):
    """The invitations I received (to matches still gathering players, where
    I hold no seat yet) and those I sent (still unanswered), newest first,
    up to 50 of each."""
    need(request, "challenge:read")
    user = request.auth.user
    received = [
        _invitation(i, user, "from")
        for i in _open_invitations(invited_user=user)
        if all(seat.user_id != user.pk for seat in i.match.seats.all())
    ]
    sent = [
        _invitation(i, user, "to")
        for i in _open_invitations(invited_by=user)
        if all(seat.user_id != i.invited_user_id for seat in i.match.seats.all())
    ]
    return {"received": received, "sent": sent}


class Invite(Schema):
    username: str


@api.post("/matches/{int:pk}/invite")
def invite(request, pk: int, data: Invite):
    """Invite a player (a person or a bot account) to a match I sit in that
    is still gathering players: the match page's invite form
    (``invitations.invite_user``), with its rules and its limit. Asking
    again for one already invited answers the same, nothing sent twice."""
    need(request, "challenge:write")
    match = _match(request, pk)
    sent = invitations.invite_user(
        user=request.auth.user, match=match, username=data.username[:150]
    )
    return {"match": pk, "invited": sent.invited_user.username}


@api.post("/matches/{int:pk}/accept")
def accept(request, pk: int):
    """Accept an invitation: take a seat in the match I was invited to (the
    match starts when its last seat is taken)."""
    need(request, "challenge:write")
    match = _match(request, pk)
    if not Invitation.objects.filter(match=match, invited_user=request.auth.user).exists():
        raise Conflict(_("You have no invitation to this match."))
    seat = lobby.join_match(user=request.auth.user, match=match)
    return {"match": pk, "seat": seat.index}


# -- Ladders ----------------------------------------------------------------------------


@api.get("/ladders")
def ladders(request):
    """Every game's ladder: its number of players and whether I am on it."""
    return [
        {"game": row.key, "title": row.title, "players": row.players, "mine": row.mine}
        for row in ladder_selectors.ladder_list(request.auth.user)
    ]


def _person(ref) -> dict:
    return {"username": ref.username, "name": ref.name}


def _challenge_line(line) -> dict:
    return {
        "id": line.pk,
        "challenger": _person(line.challenger),
        "challenged": _person(line.challenged),
        "accept_by": payloads.moment(line.accept_by),
        "match": line.match_id,
        "accepted": line.accepted,
        "mine_to_answer": line.mine_to_answer,
        "outcome": str(line.outcome),
        "moved": line.moved,
        "resolved_at": payloads.moment(line.resolved_at),
    }


@api.get("/ladders/{key}")
def ladder(request, key: str):
    """A ladder's table (place, player, rating, whether I may challenge
    them), its open challenges and latest results, as its page shows them."""
    page = ladder_selectors.ladder_page(key[:40], request.auth.user)
    if page is None:
        raise ApiError(404, "not_found", _("There is no ladder for this game."))
    return {
        "game": page.key,
        "title": page.title,
        "reach": page.reach,
        "accept_days": page.accept_days,
        "my_place": page.my_place,
        "rows": [
            {
                "place": row.place,
                **_person(row.ref),
                "rating": row.rating,
                "me": row.is_me,
                "can_challenge": row.can_challenge,
                "busy": row.busy,
            }
            for row in page.rows
        ],
        "open_challenges": [_challenge_line(line) for line in page.open_challenges],
        "recent": [_challenge_line(line) for line in page.recent],
    }


@api.post("/ladders/{key}/join")
def ladder_join(request, key: str):
    """Join a ladder at the bottom."""
    need(request, "tournament:write")
    entry = ladder_services.join(request.auth.user, key[:40])
    return {"game": key, "joined": True, "rung": entry.rung}


@api.post("/ladders/{key}/leave")
def ladder_leave(request, key: str):
    """Leave a ladder: everyone below moves up one place."""
    need(request, "tournament:write")
    ladder_services.leave(request.auth.user, key[:40])
    return {"game": key, "left": True}


class LadderChallenge(Schema):
    opponent: str


@api.post("/ladders/{key}/challenge")
def ladder_challenge(request, key: str, data: LadderChallenge):
    """Challenge a player up to ``reach`` places above me: a private match is
    opened and they are invited; they have ``accept_days`` to accept."""
    need(request, "challenge:write")
    found = ladder_services.challenge(request.auth.user, key[:40], data.opponent[:150])
    return {
        "id": found.pk,
        "match": found.match_id,
        "accept_by": payloads.moment(found.accept_by),
    }


LADDER_ANSWERS = {"accept": ladder_services.accept, "decline": ladder_services.decline}


@api.post("/ladders/challenges/{int:challenge_id}/{answer}")
def ladder_answer(request, challenge_id: int, answer: str):
    """Accept a ladder challenge addressed to me (its match starts) or
    decline it (it counts as lost: the challenger takes my place)."""
    need(request, "challenge:write")
    service = LADDER_ANSWERS.get(answer)
    if service is None or challenge_id >= 2**63:
        raise ApiError(404, "not_found", _("You have no such challenge."))
    found = service(request.auth.user, challenge_id)
    return {"id": found.pk, "match": found.match_id, "answer": answer}

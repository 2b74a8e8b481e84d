"""The public API, ``/api/v1/`` (django-ninja): thin functions over the
services and selectors the pages use. See ``docs/api.md``."""

from __future__ import annotations

from typing import Literal

from django.db import IntegrityError, transaction
from django.http import Http404
from django.utils.translation import gettext as _
from ninja import NinjaAPI, Schema
from ninja.errors import AuthenticationError, HttpError, ValidationError

from api import oauth, payloads
from api.auth import TokenAuth, address_limit, address_limited, need
from api.errors import ApiError, body, code_of
from api.models import IdempotentAnswer
from core.errors import ServiceError, StaleVersion
from games.engine import registry
from games.lobby import invitations, listings
from games.lobby import services as lobby
from games.models import Match, MatchStatus, Seat
from games.play import access, chat, notes, safety, services
from players import selectors as player_selectors
from tournaments import selectors as tournament_selectors
from tournaments import services as tournament_services
from tournaments.models import Tournament

api = NinjaAPI(
    title="Smoki API",
    version="1",
    urls_namespace="api-v1",
    auth=TokenAuth(),
    docs_decorator=address_limited,
)


def _json(request, status: int, data: dict):
    return api.create_response(request, data, status=status)


@api.exception_handler(ApiError)
def _api_error(request, error: ApiError):
    response = _json(request, error.status, body(error.code, error.message, **error.extra))
    if error.status == 429:
        response["Retry-After"] = str(error.extra["retry_after"])
    return response


@api.exception_handler(ServiceError)
def _service_error(request, error: ServiceError):
    extra = {}
    if isinstance(error, StaleVersion) and getattr(request, "_api_match", None) is not None:
        extra["version"] = Match.objects.values_list("version", flat=True).get(
            pk=request._api_match
        )
    return _json(request, error.status, body(code_of(error), error.message, **extra))


@api.exception_handler(Http404)
def _not_found(request, error):
    return _json(request, 404, body("not_found", _("There is no such match.")))


@api.exception_handler(AuthenticationError)
def _unauthenticated(request, error):
    return _json(request, 401, body("no_token", _("Send a token: Authorization: Bearer …")))


@api.exception_handler(ValidationError)
def _invalid(request, error):
    return _json(
        request, 400, body("bad_input", _("The request is not valid JSON of the expected shape."))
    )


@api.exception_handler(HttpError)
def _http_error(request, error: HttpError):
    return _json(request, error.status_code, body("bad_input", _("The request is not valid.")))


def _match(request, pk: int) -> Match:
    """A match the token's owner may look at (404 otherwise, private ones included)."""
    request._api_match = pk
    return access.get_match_for(pk, request.auth.user)


def _page(page: int) -> int:
    if page < 1 or page > 10_000:
        raise ApiError(400, "bad_input", _("Pages are numbered from 1."))
    return page


@api.get("/", auth=None)
def index(request):
    """Where to start: the schema and its page."""
    address_limit(request)
    return {"openapi": "/api/v1/openapi.json", "docs": "/api/v1/docs"}


@api.get("/me")
def me(request):
    user = request.auth.user
    return {
        "username": user.username,
        "language": user.profile.language,
        "scopes": request.auth.scopes,
        "bot": user.profile.is_bot_account,
    }


@api.get("/games", auth=None)
def games(request):
    """Each game's key, rules version, player counts and options with their defaults.
    No token needed; still counted against the caller's address."""
    address_limit(request)
    return [
        {
            "key": game.key,
            "title": str(game.title),
            "rules_version": game.rules_version,
            "min_players": game.min_players,
            "max_players": game.max_players,
            "options": [
                {
                    "key": option.key,
                    "default": option.default,
                    "choices": [choice for choice, _label in option.choices],
                }
                for option in game.options
            ],
        }
        for game in registry.all()
    ]


@api.get("/matches")
def my_matches(request):
    """My open and active matches, most urgent first (my turn, then the nearest deadline)."""
    need(request, "match:read", "bot:play")
    user = request.auth.user
    rows = listings.my_matches(user)
    return [
        {
            **payloads.summary(row.match, _my_seat(row.match, user)),
            "my_turn": row.my_turn,
        }
        for row in rows
    ]


def _my_seat(match, user):
    return next((s for s in match.seats.all() if s.user_id == user.pk), None)


@api.get("/matches/finished")
def finished(request, page: int = 1):
    need(request, "match:read", "bot:play")
    user = request.auth.user
    start = (_page(page) - 1) * payloads.PAGE
    matches = list(
        Match.objects.filter(
            seats__user=user, status__in=[MatchStatus.FINISHED, MatchStatus.ABORTED]
        )
        .defer("state")
        .prefetch_related("seats__user")
        .order_by("-finished_at", "-pk")[start : start + payloads.PAGE + 1]
    )
    return {
        "page": page,
        "more": len(matches) > payloads.PAGE,
        "matches": [payloads.summary(m, _my_seat(m, user)) for m in matches[: payloads.PAGE]],
    }


@api.get("/matches/{int:pk}")
def match(request, pk: int, since: str = ""):
    """The match as my seat sees it. With ``since``, the ``stamp`` of an
    earlier answer: while nothing a page would show has changed, only
    ``{"id", "stamp", "changed": false}``, from the poll's own one-query
    check (``access.stamp_for``), without reading the state."""
    need(request, "match:read", "bot:play")
    user = request.auth.user
    if since and since == access.stamp_for(pk, user, user_id=user.pk):
        return {"id": pk, "stamp": since, "changed": False}
    found = _match(request, pk)
    return {**payloads.detail(found, user), "stamp": found.stamp, "changed": True}


@api.get("/matches/{int:pk}/log")
def match_log(request, pk: int, page: int = 1):
    need(request, "match:read", "bot:play")
    return payloads.log_page(_match(request, pk), request.auth.user, _page(page))


class Act(Schema):
    action_id: str
    version: int


@api.post("/matches/{int:pk}/actions")
def act(request, pk: int, data: Act):
    """Play one of my legal actions by its id, on the version I saw.

    With an ``Idempotency-Key`` header the answer is kept: a retry with the
    same key gets the same answer and makes no second move."""
    need(request, "match:play", "bot:play")
    key = request.headers.get("Idempotency-Key", "")[:100]
    if key:
        kept = IdempotentAnswer.objects.kept().filter(**_answers_of(request), key=key).first()
        if kept is not None:
            return _json(request, kept.status, kept.body)
    request._api_match = pk
    user = request.auth.user

    def chosen(game, state, seat_index):
        """The legal action with the id sent, on the position under the lock."""
        for action in game.legal_actions(state, seat_index):
            if payloads.action_id(action) == data.action_id:
                return action
        raise ApiError(400, "unknown_action", _("That is not one of your legal actions now."))

    # As the page's form move: the match is not read before the write; the
    # move's locked read checks seat, status, version and turn, and a
    # refusal checks access first (a private match stays a 404 to others).
    try:
        move = services.submit_player_action(pk, user, None, data.version, choose=chosen)
    except ServiceError:
        if access.stamp_for(pk, user, user_id=user.pk) is None:
            raise Http404 from None
        if not Seat.objects.filter(match_id=pk, user=user).exists():
            raise ApiError(403, "not_a_player", _("You do not play in this match.")) from None
        raise
    answer = {"version": move.seq, "match": pk}
    if key:
        try:
            with transaction.atomic():
                IdempotentAnswer.objects.create(
                    **_answers_of(request), key=key, status=200, body=answer
                )
        except IntegrityError:  # a parallel retry kept its answer first
            pass
    return answer


def _answers_of(request) -> dict:
    """The token an idempotent answer is kept for: personal or OAuth."""
    if isinstance(request.auth, oauth.OAuthCaller):
        return {"access_token": request.auth.access_token}
    return {"token": request.auth}


@api.post("/matches/{int:pk}/resign")
def resign(request, pk: int):
    need(request, "match:play", "bot:play")
    match = _match(request, pk)
    safety.resign(user=request.auth.user, match=match)
    return {"match": pk, "resigned": True}


class Message(Schema):
    text: str


@api.post("/matches/{int:pk}/chat")
def post_chat(request, pk: int, data: Message):
    need(request, "match:play", "bot:play")
    match = _match(request, pk)
    chat.post_message(request.auth.user, match, data.text)
    return {"match": pk, "posted": True}


class Note(Schema):
    text: str


@api.post("/matches/{int:pk}/notes")
def post_notes(request, pk: int, data: Note):
    """My private notes on the match (replacing what was kept)."""
    need(request, "match:play", "bot:play")
    notes.save_note(request.auth.user, _match(request, pk), data.text)
    return {"match": pk, "saved": True}


class Undo(Schema):
    answer: Literal["ask", "agree", "refuse"]


@api.post("/matches/{int:pk}/undo")
def undo(request, pk: int, data: Undo):
    """Ask to take back my last move, or agree to or refuse another's request."""
    need(request, "match:play")
    match = _match(request, pk)
    if data.answer == "ask":
        safety.ask_undo(user=request.auth.user, match=match)
    else:
        safety.answer_undo(user=request.auth.user, match=match, agree=data.answer == "agree")
    return {"match": pk, "answer": data.answer}


@api.get("/challenges")
def challenges(request):
    """Invitations I received, and the open public matches I may join."""
    need(request, "challenge:read")
    user = request.auth.user
    return {
        "invitations": [payloads.summary(m) for m in listings.my_invitations(user)],
        "open": [payloads.summary(row.match) for row in listings.open_public_matches(user)],
    }


@api.post("/matches/{int:pk}/join")
def join(request, pk: int):
    """Take a free seat: an open match, or one I was invited to."""
    need(request, "challenge:write")
    seat = lobby.join_match(user=request.auth.user, match=_match(request, pk))
    return {"match": pk, "seat": seat.index}


@api.post("/matches/{int:pk}/leave")
def leave(request, pk: int):
    """Leave a match that has not started."""
    need(request, "challenge:write")
    lobby.leave_match(user=request.auth.user, match=_match(request, pk))
    return {"match": pk, "left": True}


@api.post("/matches/{int:pk}/decline")
def decline(request, pk: int):
    """Decline an invitation."""
    need(request, "challenge:write")
    invitations.decline_invitation(user=request.auth.user, match=_match(request, pk))
    return {"match": pk, "declined": True}


@api.post("/matches/{int:pk}/rematch")
def rematch(request, pk: int):
    """Ask for a rematch of a finished match (or find the one already asked for)."""
    need(request, "challenge:write")
    new = lobby.rematch(user=request.auth.user, match=_match(request, pk))
    return {"match": new.pk}


@api.get("/players/{username}")
def player(request, username: str):
    """A player's page: ratings per game and their matches in play (public ones)."""
    page = player_selectors.player_page(username[:150], request.auth.user)
    if page is None:
        raise ApiError(404, "not_found", _("There is no such player."))
    return {
        "username": page.ref.username,
        "name": page.ref.name,
        "bot": page.ref.bot_account,
        "ratings": [
            {
                "game": s.key,
                "rating": s.display,
                "provisional": s.provisional,
                "place": s.place,
                "rated_matches": s.rated_matches,
                "wins": s.wins,
            }
            for s in page.standings
        ],
        "in_play": [line.match.pk for line in page.in_play],
    }


@api.get("/leaderboards/{key}")
def leaderboard(request, key: str, page: int = 1, bots: bool = False):
    """One page of a game's leaderboard: the people's, or with ``bots=true``
    the bot accounts' (``accounts.bots``)."""
    if key not in {game.key for game in registry.all()}:
        raise ApiError(404, "not_found", _("There is no such game."))
    board = player_selectors.leaderboard(key, _page(page), request.auth.user, bots=bots)
    return {
        "game": key,
        "bots": bots,
        "page": board.page,
        "pages": board.pages,
        "rows": [
            {
                "place": row.place,
                "username": row.ref.username,
                "name": row.ref.name,
                "rating": row.display,
                "rated_matches": row.rated_matches,
                "wins": row.wins,
            }
            for row in board.rows
        ],
    }


@api.get("/tournaments")
def tournaments(request):
    """Tournaments open for entry, running, and recently over, as their list page shows them."""
    return {
        name: [
            {
                "id": t.pk,
                "name": t.name,
                "game": t.game_key,
                "format": t.format,
                "status": t.status,
                "starts_at": payloads.moment(t.starts_at),
                "entrants": t.n_entrants,
                "max_entrants": t.max_entrants,
            }
            for t in rows
        ]
        for name, rows in tournament_selectors.tournament_lists().items()
    }


TOURNAMENT_ACTIONS = {
    "join": tournament_services.join,
    "leave": tournament_services.leave,
    "withdraw": tournament_services.withdraw,
}


@api.post("/tournaments/{int:tournament_id}/{action}")
def tournament_action(request, tournament_id: int, action: str):
    """Enter a tournament, leave it before it starts, or withdraw from it."""
    need(request, "tournament:write")
    service = TOURNAMENT_ACTIONS.get(action)
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if service is None or tournament is None:
        raise ApiError(404, "not_found", _("There is no such tournament."))
    service(user=request.auth.user, tournament=tournament)
    return {"tournament": tournament_id, "action": action}

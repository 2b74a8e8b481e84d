"""``GET /api/v1/stream``: the token owner's events, one JSON object a line.

Opening it checks the token as every endpoint does (address and token
limits, 401 for a bad token, 403 for a token that may hear nothing), then
takes the token's one stream: a second stream on the same token while the
first is open is refused with 409 ``stream_open`` (the mark lapses
``LOCK_SECONDS`` after a stream's process dies without saying so). The
first line is a keep-alive (an empty line), sent at once; then, with
``?since=N`` (or a ``Last-Event-ID: N`` header), every kept event numbered
after N, and from then on each new event as its change commits. An empty
line every ``SMOKI_STREAM_KEEPALIVE_SECONDS`` keeps proxies from closing an
idle stream.

The stream holds no database connection while it waits: each read (when
the bus says something is new, or without Redis every
``SMOKI_LIVE_PROBE_SECONDS``) runs in a worker thread whose connection is
closed after it, like the live pages' streams (``games.web.live_views``),
served the same way: by uvicorn without a thread kept per request
(``config/asgi.py``), or by a WSGI server from a thread of its own.

Each event is made for the token owner's seat when it is sent: a move's
lines are ``move_log.log_lines`` for the seat's ``sight``, the words the
match page shows that seat, so no event holds another seat's secret.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime

from asgiref.sync import sync_to_async
from django.conf import settings
from django.core.cache import cache
from django.core.handlers.asgi import ASGIRequest
from django.db.models import Prefetch
from django.http import JsonResponse, StreamingHttpResponse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from oauth2_provider.models import AccessToken

from api import events as kinds
from api import payloads, tokens
from api.auth import TokenAuth
from api.errors import ApiError, body
from api.models import ApiToken
from games.models import ChatMessage, Match, Move, Seat
from games.panel import move_log
from games.web.live_views import _in_thread, _release_db
from streams import bus, events

#: The line sent to keep a quiet stream open.
KEEPALIVE = b"\n"


def keepalive_seconds() -> float:
    return settings.SMOKI["STREAM_KEEPALIVE_SECONDS"]


def lock_seconds() -> int:
    """How long a stream's mark outlives its last renewal (a keep-alive)."""
    return int(2 * keepalive_seconds() + 5)


def _lock_key(token_id: int) -> str:
    return f"api:stream:{token_id}"


@dataclass(frozen=True)
class Opened:
    """A stream that passed its checks: whose, what it hears, from where."""

    user_id: int
    token_id: int | str  # an ApiToken's pk, or "oauth-<pk>" for an OAuth access token
    language: str
    kinds: tuple[str, ...]
    since: int
    nonce: str
    expires_at: datetime | None = None


def _since(request) -> int | None:
    raw = request.GET.get("since") or request.headers.get("Last-Event-ID") or ""
    if not raw:
        return None
    if not raw.isascii() or not raw.isdigit() or len(raw) > 18:
        raise ApiError(400, "bad_input", _("The request is not valid."))
    return int(raw)


def _expiry(token) -> datetime | None:
    """When the token lapses (a personal token's ``expires_at``, an OAuth
    access token's ``expires``): the stream ends then without asking."""
    if isinstance(token, ApiToken):
        return token.expires_at
    return getattr(getattr(token, "access_token", None), "expires", None)


def open_stream(request) -> Opened | JsonResponse:
    """The checks and the token's one stream; the connection closed after."""
    try:
        token = TokenAuth()(request)
        if token is None:
            raise ApiError(401, "no_token", _("Send a token: Authorization: Bearer …"))
        heard = kinds.kinds_for(token.scopes)
        if not heard:
            raise ApiError(
                403,
                "missing_scope",
                _("This token lacks the scope it needs: %(scope)s.")
                % {"scope": "match:read, challenge:read"},
                scope="match:read",
            )
        since = _since(request)
        nonce = secrets.token_hex(8)
        if not cache.add(_lock_key(token.pk), nonce, timeout=lock_seconds()):
            raise ApiError(409, "stream_open", _("This token already has an event stream open."))
        last = events.settle(token.user.pk)
        return Opened(
            token.user.pk,
            token.pk,
            token.user.profile.language,
            heard,
            last if since is None else min(since, last),
            nonce,
            _expiry(token),
        )
    except ApiError as error:
        response = JsonResponse(body(error.code, error.message, **error.extra), status=error.status)
        if error.status == 429:
            response["Retry-After"] = str(error.extra["retry_after"])
        return response
    finally:
        _release_db()


def read(opened: Opened, since: int) -> tuple[list[bytes], int]:
    """The lines of the events numbered after ``since`` (numbering those
    just committed first), and the last number sent. On PostgreSQL one
    statement numbers and reads (``streams.events.read``) and three more
    make the lines (the matches, their seats and players, the moves)."""
    try:
        with translation.override(opened.language):
            lines: list[bytes] = []
            while True:
                rows = events.read(opened.user_id, since, opened.kinds)
                lines += render(rows, opened.user_id)
                if rows:
                    since = rows[-1].seq
                if len(rows) < events.BATCH:
                    return lines, since
    finally:
        _release_db()


def token_alive(token_id) -> bool:
    """The token is neither revoked nor expired, nor its owner shut out
    (the stream ends otherwise): a personal token's id, or ``oauth-<id>``
    for an OAuth access token."""
    try:
        if isinstance(token_id, str) and token_id.startswith("oauth-"):
            found = (
                AccessToken.objects.filter(pk=int(token_id[6:]), user__is_active=True)
                .only("expires")
                .first()
            )
            return found is not None and not found.is_expired()
        token = (
            ApiToken.objects.filter(pk=token_id, revoked_at=None, user__is_active=True)
            .only("expires_at")
            .first()
        )
        return token is not None and (token.expires_at is None or token.expires_at > timezone.now())
    finally:
        _release_db()


def beat(opened: Opened) -> bool:
    """A keep-alive's upkeep in the cache: the token's stream mark renewed,
    and whether the token was revoked meanwhile (``tokens.mark_revoked``)."""
    key = _lock_key(opened.token_id)
    cache.set(key, opened.nonce, timeout=lock_seconds())
    return not cache.get(tokens.revoked_key(opened.token_id))


_read = sync_to_async(read, thread_sensitive=False)
_alive = sync_to_async(token_alive, thread_sensitive=False)
_beat = sync_to_async(beat)


async def lines(opened: Opened) -> AsyncIterator[bytes]:
    """The stream's bytes until ``SMOKI_STREAM_SECONDS`` have passed (the
    client then reconnects with the last id it read), the token is revoked,
    or the client leaves."""
    conf = settings.SMOKI
    every = keepalive_seconds()
    probe = None if bus.shared() else conf["LIVE_PROBE_SECONDS"]
    try:
        async with bus.Subscription(events.topic(opened.user_id)) as subscription:
            # Listening from here on: what commits after this is heard.
            found, cursor = await _read(opened, opened.since)
            yield b"".join(found) + KEEPALIVE
            started = last_beat = last_check = time.monotonic()
            while time.monotonic() - started < conf["STREAM_SECONDS"]:
                wait = max(0.0, every - (time.monotonic() - last_beat))
                message = await subscription.next(min(wait, probe) if probe else wait)
                if message is not None or probe:
                    found, cursor = await _read(opened, cursor)
                    if found:
                        yield b"".join(found)
                if time.monotonic() - last_beat >= every:
                    last_beat = time.monotonic()
                    if not await _beat(opened) or (
                        opened.expires_at is not None and timezone.now() >= opened.expires_at
                    ):
                        return
                    if last_beat - last_check >= conf["STREAM_TOKEN_CHECK_SECONDS"]:
                        last_check = last_beat
                        if not await _alive(opened.token_id):
                            return
                    yield KEEPALIVE
    finally:
        await sync_to_async(release)(opened)


def release(opened: Opened) -> None:
    """Give up the token's stream mark, if it is still this stream's."""
    key = _lock_key(opened.token_id)
    if cache.get(key) == opened.nonce:
        cache.delete(key)


async def stream(request):
    if request.method != "GET":
        # A JSON refusal as every other error of the API (not the site's page).
        refused = JsonResponse(
            body("method_not_allowed", _("The event stream is read with GET.")), status=405
        )
        refused["Allow"] = "GET"
        return refused
    opened = await sync_to_async(open_stream)(request)
    if isinstance(opened, JsonResponse):
        return opened
    chunks = lines(opened)
    response = StreamingHttpResponse(
        chunks if isinstance(request, ASGIRequest) else _in_thread(chunks),
        content_type="application/x-ndjson",
    )
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"
    response["Content-Encoding"] = "identity"
    # Also when the stream is closed before it sent anything.
    response._resource_closers.append(lambda: release(opened))
    return response


# -- What each event says -----------------------------------------------------------


def render(rows, user_id: int) -> list[bytes]:
    """One line per row, made for the seat ``user_id`` holds (a few queries
    for any number of rows: the matches, the moves, the chat lines)."""
    if not rows:
        return []
    match_ids = {row.match_id for row in rows if row.match_id}
    matches = {
        m.pk: m
        for m in Match.objects.filter(pk__in=match_ids)
        .defer("state")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")))
    }
    moves = {}
    wanted = [row for row in rows if row.kind == "move"]
    if wanted:
        for move in Move.objects.filter(
            match_id__in={row.match_id for row in wanted},
            seq__in={row.version for row in wanted},
        ):
            moves[(move.match_id, move.seq)] = move
    chats = {}
    said = [row.data.get("message") for row in rows if row.kind == "chat"]
    if said:
        chats = {c.pk: c for c in ChatMessage.objects.filter(pk__in=said).select_related("user")}
    return [
        (json.dumps(event(row, matches.get(row.match_id), user_id, moves, chats)) + "\n").encode()
        for row in rows
    ]


def event(row, match, user_id: int, moves: dict, chats: dict) -> dict:
    """The JSON of one event (the match's part read now, for the seat)."""
    data = {"id": row.seq, "type": row.kind, "at": payloads.moment(row.created_at)}
    if match is None:
        return data
    seats = sorted(match.seats.all(), key=lambda s: s.index)
    me = next((seat for seat in seats if seat.user_id == user_id), None)
    data.update(match=match.pk, game=match.game_key)
    if row.kind in kinds.CHALLENGE_KINDS:
        data.update(seats=payloads.seats(match))
        if "by" in row.data:
            data["by"] = row.data["by"]
        return data
    data["version"] = row.version
    if row.kind == "move":
        move = moves.get((match.pk, row.version))
        names = [seat.player_name for seat in seats]
        lines = move_log.log_lines(match, names, me.sight if me else None, [move] if move else [])
        data.update(
            seat=move.seat if move else None,
            who=lines[0].who if lines else "",
            lines=lines[0].sentences if lines else [],
            to_move=row.data.get("to_move", []),
            my_turn=row.data.get("my_turn", False),
        )
    elif row.kind in ("your_turn", "reminder"):
        # The turn's deadline as it stands while the turn is on (a move's
        # row is written before the clock sets it), else as it was told.
        current = match.version == row.version and match.deadline
        data["deadline"] = payloads.moment(match.deadline) if current else row.data.get("deadline")
    elif row.kind == "match_started":
        data.update(seats=payloads.seats(match), my_seat=me.index if me else None)
    elif row.kind == "match_finished":
        data.update(status=match.status, result=match.result, my_seat=me.index if me else None)
    elif row.kind == "chat":
        line = chats.get(row.data.get("message"))
        if line is not None:
            data.update(
                version=match.version,
                by=line.user.username,
                text="" if line.hidden_at else line.text,
            )
    return data

"""Live mode's two endpoints: a match's events stream and "let's play live now".

The stream (``/m/<id>/events``) is an async view: in production uvicorn
serves it (deploy/), where it waits on the event loop with no database
connection: the access check and the seats are read once, in a thread,
whose connection is closed before the stream starts (``config/asgi.py``
serves the streams without Django's thread kept per open request). Under a WSGI server
(``make run``'s runserver, the test client) the same stream is served from a
thread of its own (``_in_thread``). It answers 404 to whoever may not see the
match (as every page of the match does) and 204 for a match that is over
(EventSource then stops asking). See ``games.live.stream`` for what it sends.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator

from asgiref.sync import sync_to_async
from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.core.handlers.asgi import ASGIRequest
from django.db import DatabaseError, connection
from django.http import Http404, HttpResponse, StreamingHttpResponse
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import Forbidden, ServiceError
from games.live import offer, stream
from games.models import Match, MatchStatus, Seat
from games.play import access
from games.web.match_views import _refuse
from streams import bus

OVER = (MatchStatus.FINISHED, MatchStatus.ABORTED)


def _release_db() -> None:
    """Close this thread's database connection: a stream may stay open for
    minutes and must not hold one (inside a test's transaction it is kept)."""
    if not connection.in_atomic_block:
        connection.close()


def _watch(request, pk: int) -> stream.Watch | None | str:
    """Who watches (``stream.Watch``), None when they may not see the match,
    "over" when it has ended. One access query and one for the seats."""
    try:
        stamp = access.stamp_for(
            pk, request.user, request.GET.get("token"), request.session.get(SESSION_KEY)
        )
        if stamp is None:
            return None
        status = stamp.split("-")[1]
        if status in OVER:
            return "over"
        seats = list(Seat.objects.filter(match_id=pk).only("user_id", "is_bot", "status"))
        humans = frozenset(seat.user_id for seat in offer.humans_of(seats))
        user_id = request.user.pk if request.user.is_authenticated else None
        gathering = status == MatchStatus.OPEN
        member = user_id if user_id in humans and not gathering else None
        return stream.Watch(pk, member, humans, gathering)
    finally:
        _release_db()


def _probe_for(pk: int):
    """The match's stamp, read with a connection closed right after."""

    def read() -> str | None:
        try:
            row = Match.objects.filter(pk=pk).values_list(*Match.STAMP_FIELDS).first()
        except DatabaseError:
            return None  # the next look, or the page's poll, will tell
        finally:
            _release_db()
        return None if row is None else Match.stamp_of(*row)

    return sync_to_async(read, thread_sensitive=False)


def _in_thread(chunks: AsyncIterator[bytes]) -> Iterator[bytes]:
    """The stream for a WSGI server: its own event loop in the serving thread
    (with Redis, its own subscription too, ended with the stream)."""
    loop = asyncio.new_event_loop()
    try:
        while True:
            try:
                yield loop.run_until_complete(anext(chunks))
            except StopAsyncIteration:
                return
    finally:
        loop.run_until_complete(chunks.aclose())
        loop.run_until_complete(bus.stop_reader())
        loop.close()


@require_GET
async def match_events(request, pk: int):
    watch = await sync_to_async(_watch)(request, pk)
    if watch is None:
        raise Http404
    if watch == "over":
        return HttpResponse(status=204)
    chunks = stream.events(watch, _probe_for(pk))
    body = chunks if isinstance(request, ASGIRequest) else _in_thread(chunks)
    response = StreamingHttpResponse(body, content_type="text/event-stream")
    response["Cache-Control"] = "no-store"
    response["X-Accel-Buffering"] = "no"  # a proxy must pass each event at once
    # Nothing to compress (GZipMiddleware would hold events back to fill blocks).
    response["Content-Encoding"] = "identity"
    return response


@require_POST
def match_offer_live(request, pk: int):
    """ "Let's play live now": tell the others, back to the match page."""
    match = access.get_match_for(pk, request.user, request.POST.get("token"))
    if not request.user.is_authenticated:
        return _refuse(request, pk, Forbidden(_("Please log in first.")))
    try:
        told = offer.offer_live(user=request.user, match=match)
    except ServiceError as error:
        return _refuse(request, pk, error)
    messages.success(
        request,
        _("The other players are told that you would like to play live now.")
        if told > 1
        else _("The other player is told that you would like to play live now."),
    )
    return redirect("match_detail", pk=pk)

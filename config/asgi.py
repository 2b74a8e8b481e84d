"""The ASGI application: what uvicorn serves in production (deploy/), the
matches' live event streams (``/m/<id>/events``, docs/community.md).

Django's ASGI handler gives each request a thread for its synchronous parts
(the middleware, the access check) and keeps it until the response ends:
for a stream that stays open for minutes, one idle thread per open page.
The streams are therefore served by a handler without that per-request
thread: their short synchronous parts take turns on asgiref's one shared
thread (a few milliseconds each, when a stream opens and at each
heartbeat), and every other path goes to Django's own handler.
"""

import os
import re

from django.core.asgi import get_asgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django_application = get_asgi_application()

from django.core.handlers.asgi import ASGIHandler  # noqa: E402 - after Django is set up

EVENTS = re.compile(r"^(/m/[0-9]+/events|/api/v1/stream)$")


class StreamsHandler(ASGIHandler):
    """Django's handler, without a thread kept for each open request."""

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            raise ValueError(f"Django can only handle ASGI/HTTP connections, not {scope['type']}.")
        await self.handle(scope, receive, send)


_streams = StreamsHandler()


async def application(scope, receive, send):
    if scope["type"] == "http" and EVENTS.match(scope.get("path", "")):
        await _streams(scope, receive, send)
    else:
        await django_application(scope, receive, send)

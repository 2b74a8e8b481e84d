from django.http import JsonResponse
from django.urls import path, re_path
from django.utils.translation import gettext as _

from api import lobby_endpoints, stream  # noqa: F401 - lobby_endpoints registers the lobby's and ladders' endpoints
from api.endpoints import api


def unknown(request, rest=""):
    """Any other address under /api/: a JSON 404, never the site's HTML page."""
    return JsonResponse(
        {"error": {"code": "not_found", "message": _("There is no such address in the API.")}},
        status=404,
    )


urlpatterns = [
    path("v1/stream", stream.stream, name="api_stream"),
    path("v1/", api.urls),
    re_path(r"^(?P<rest>.*)$", unknown),
]

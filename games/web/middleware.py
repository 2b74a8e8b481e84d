"""Requests Smoki never serves are refused before any view runs.

- Only GET, HEAD, OPTIONS and POST exist on the site; PUT, PATCH, DELETE and
  the rest answer 405 everywhere (the admin's and the account pages' form
  views would otherwise treat them as GET or as POST).
- A NUL character is never valid in a form field or a query parameter;
  PostgreSQL cannot even store one. Such a request answers 400 with a
  clear message and changes nothing.
- Every form and query is UTF-8. Django reads bytes that are not as U+FFFD
  (the replacement character) and goes on, so a chat post of ``\xff\xfe``
  would be stored as two question marks; such a request answers 400 and
  changes nothing instead.
"""

from urllib.parse import unquote_to_bytes

from django.core.handlers.wsgi import get_bytes_from_wsgi
from django.http import HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

ALLOWED_METHODS = ("GET", "HEAD", "OPTIONS", "POST")


def has_nul(values: MultiValueDict) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values.getlist(key)) for key in values)


REPLACEMENT = "\ufffd"
REPLACEMENT_FORMS = (REPLACEMENT.encode(), b"%EF%BF%BD", b"%ef%bf%bd")


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def not_utf8(request) -> bool:
    """Whether the query or the posted form holds bytes that are not UTF-8.

    A URL-encoded body and the query are checked byte for byte once their
    %-escapes are undone. A multipart body may carry files, so it is judged
    by what Django made of it: a replacement character in a field that the
    body never sent as such was an undecodable byte.
    """
    if not _utf8(unquote_to_bytes(get_bytes_from_wsgi(request.META, "QUERY_STRING", ""))):
        return True
    if request.method != "POST":
        return False
    if request.content_type == "application/x-www-form-urlencoded":
        return not _utf8(unquote_to_bytes(request.body))
    if request.content_type == "multipart/form-data":
        body = request.body
        if any(form in body for form in REPLACEMENT_FORMS):
            return False
        return any(
            REPLACEMENT in key or any(REPLACEMENT in value for value in request.POST.getlist(key))
            for key in request.POST
        )
    return False


def bad_request(request, message: str):
    """A 400 page that says what was wrong."""
    return render(request, "400.html", {"message": message}, status=400)


class RequestGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ALLOWED_METHODS:
            return HttpResponseNotAllowed(ALLOWED_METHODS)
        if not_utf8(request):
            return bad_request(request, _("The request contains text that is not valid UTF-8."))
        if has_nul(request.GET) or (request.method == "POST" and has_nul(request.POST)):
            return bad_request(request, _("The request contains a character that is not allowed."))
        return self.get_response(request)

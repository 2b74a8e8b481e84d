"""Requests Smoki never serves are refused before any view runs.

- Only GET, HEAD, OPTIONS and POST exist on the site; PUT, PATCH, DELETE and
  the rest answer 405 everywhere (the admin's and the account pages' form
  views would otherwise treat them as GET or as POST).
- A NUL character is never valid in a form field or a query parameter;
  PostgreSQL cannot even store one. Such a request answers 400 with a
  clear message and changes nothing.
"""

from django.http import HttpResponseNotAllowed
from django.shortcuts import render
from django.utils.datastructures import MultiValueDict
from django.utils.translation import gettext as _

ALLOWED_METHODS = ("GET", "HEAD", "OPTIONS", "POST")


def has_nul(values: MultiValueDict) -> bool:
    return any("\x00" in key or any("\x00" in v for v in values.getlist(key)) for key in values)


def bad_request(request, message: str):
    """A 400 page that says what was wrong."""
    return render(request, "400.html", {"message": message}, status=400)


class RequestGuardMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in ALLOWED_METHODS:
            return HttpResponseNotAllowed(ALLOWED_METHODS)
        if has_nul(request.GET) or (request.method == "POST" and has_nul(request.POST)):
            return bad_request(request, _("The request contains a character that is not allowed."))
        return self.get_response(request)

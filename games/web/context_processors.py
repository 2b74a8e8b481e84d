from functools import cache, cached_property
from urllib.parse import urlencode, urlsplit

from django.conf import settings
from django.template.backends.utils import csrf_input
from django.urls import reverse
from django.utils.http import url_has_allowed_host_and_scheme

from accounts.selectors import preferences
from games.correspondence import inbox


def service_worker(request):
    """Pages register the service worker in production only: in development
    the static files keep their names while they change, and a cache would
    hold stale copies."""
    return {"service_worker": not settings.DEBUG}


def bell(request):
    """The unread count behind the bell in the top bar, the colours and the
    name, signed-in only. The count is read only if a template shows it (a
    fragment such as the match panel does not), and a view that has it
    already passes ``unread_notifications`` itself."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    chosen = preferences(user)
    return {
        "unread_notifications": cache(lambda: inbox.unread_count(user)),
        "theme": chosen["theme"],
        "my_name": chosen["name"],
    }


class _CsrfInputOnce:
    """The CSRF field, masked once for the whole fragment and only if printed."""

    def __init__(self, request):
        self._request = request

    @cached_property
    def _html(self) -> str:
        return csrf_input(self._request)

    def __html__(self) -> str:
        return self._html

    __str__ = __html__


def csrf_once(request):
    """``csrf_input`` for the Jinja2 fragments, drawn once per fragment.

    Django's Jinja2 backend gives a lazy value that masks the token anew each
    time it is printed (a fresh random string from the system's generator),
    and the match panel prints it in every form: a dozen on a turn with
    choices, a sixth of drawing the panel. One mask per response is what the
    masking is for (a different one on every response); nothing is computed,
    and no CSRF cookie set, when the fragment prints no form."""
    return {"csrf_input": _CsrfInputOnce(request)}


def login_link(request):
    """``login_url``: the login page with ``?next=`` the page the visitor is on,
    so every "Log in" link brings them back to it (allauth honours ``next``).

    The page is the address in the browser: a fragment fetched by htmx (the
    match panel's poll) names it in ``HX-Current-URL``. On allauth's own
    pages the ``next`` they were given is passed on. Only a path on this
    site is used; anything else gives the plain login page. Signed-in users
    see no login link and get nothing."""
    user = getattr(request, "user", None)
    if user is None or user.is_authenticated:
        return {}
    login = reverse("account_login")
    here = return_path(request)
    return {"login_url": f"{login}?{urlencode({'next': here})}" if here else login}


def return_path(request) -> str:
    """The path (with its query) of the page the request was made from, or ""."""
    htmx = getattr(request, "htmx", None)
    here = (htmx.current_url_abs_path or "") if htmx else request.get_full_path()
    if urlsplit(here).path.startswith("/accounts/"):
        here = request.GET.get("next", "")
    if not here.startswith("/") or not url_has_allowed_host_and_scheme(
        here, allowed_hosts={request.get_host()}, require_https=request.is_secure()
    ):
        return ""
    return here

"""The profile's API tokens page: make one (shown once), see them, revoke one;
and the apps the player has authorized through OAuth, each revocable."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_variables
from django.views.decorators.http import require_GET, require_POST

from api import oauth, tokens
from api.forms import TokenForm
from core.errors import ServiceError


@sensitive_variables("raw")
def _page(request, form=None, raw=None, status=200):
    context = {
        "form": form or TokenForm(user=request.user),
        "tokens": tokens.tokens_of(request.user),
        "apps": oauth.authorized_apps(request.user),
        "raw": raw,
        "scopes": tokens.SCOPES,
    }
    response = render(request, "api/tokens.html", context, status=status)
    # The one page that shows a token: no cache may keep it.
    response["Cache-Control"] = "no-store"
    return response


@require_GET
@login_required
def tokens_page(request):
    return _page(request)


@sensitive_variables("raw", "_token")
@require_POST
@login_required
def token_create(request):
    """Make a token and show it this once: only its digest is kept."""
    form = TokenForm(request.POST, user=request.user)
    if not form.is_valid():
        return _page(request, form=form, status=400)
    data = form.cleaned_data
    try:
        _token, raw = tokens.make_token(
            request.user, data["name"], data["scopes"], int(data["days"] or 0) or None
        )
    except ServiceError as error:
        form.add_error(None, error.message)
        return _page(request, form=form, status=error.status)
    return _page(request, raw=raw)


@require_POST
@login_required
def token_revoke(request, pk: int):
    try:
        tokens.revoke_token(request.user, pk)
    except ServiceError as error:
        messages.error(request, error.message)
        return _page(request, status=error.status)
    messages.success(request, _("The token was revoked; it no longer works."))
    return redirect("api_tokens")


@require_POST
@login_required
def app_revoke(request, pk: int):
    """Take back an app's access: its tokens stop working at once."""
    try:
        oauth.revoke_app(request.user, pk)
    except ServiceError as error:
        messages.error(request, error.message)
        return _page(request, status=error.status)
    messages.success(request, _("The app's access was taken back; its tokens no longer work."))
    return redirect("api_tokens")

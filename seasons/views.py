"""Season pages: thin views over ``seasons.selectors`` and ``seasons.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError
from seasons import selectors, services
from seasons.models import Season


@require_GET
def season_list(request):
    return render(request, "seasons/list.html", {"lists": selectors.season_lists()})


@require_GET
def season_detail(request, season_id: int):
    page = selectors.season_page(season_id, request.user)
    if page is None:
        raise Http404(_("There is no such season."))
    return render(request, "seasons/detail.html", {"page": page})


# The messages are lazy: translated when shown, in the player's language.
ACTIONS = {
    "sign-up": (services.sign_up, gettext_lazy("You are signed up for the season.")),
    "leave": (services.leave, gettext_lazy("You left the season.")),
}


@require_POST
@login_required
def season_action(request, season_id: int, action: str):
    if action not in ACTIONS:
        raise Http404(_("There is no such action."))
    season = Season.objects.filter(pk=season_id).first()
    if season is None:
        raise Http404(_("There is no such season."))
    service, done = ACTIONS[action]
    try:
        service(user=request.user, season=season)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(done))
    return redirect("season_detail", season_id=season_id)

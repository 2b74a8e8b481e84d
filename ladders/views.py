"""The ladders' pages and buttons: thin views over ``ladders.selectors`` and
``ladders.services``. A refusal shows the ladder's page again with the
reason and the refusal's status; nothing was changed."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError
from ladders import rungs, selectors, services
from ladders.models import Challenge


@require_GET
def ladder_list(request):
    return render(request, "ladders/list.html", {"ladders": selectors.ladder_list(request.user)})


def _page(request, key: str, error: str = "", status: int = 200):
    data = selectors.ladder_page(key, request.user)
    if data is None:
        raise Http404(_("There is no ladder for this game."))
    return render(request, "ladders/ladder.html", {"ladder": data, "error": error}, status=status)


@require_GET
def ladder_detail(request, key: str):
    return _page(request, key)


def _post(request, key: str, operation, success: str, then=None):
    """Run one service call and answer: back to the page (or ``then``) with a
    message, or the page again with the refusal."""
    try:
        result = operation()
    except ServiceError as error:
        if error.status == 404 and selectors.ladder_page(key, None) is None:
            raise Http404(error.message) from None
        return _page(request, key, error.message, error.status)
    messages.success(request, success)
    return redirect(then(result)) if then else redirect("ladder_detail", key=key)


@require_POST
@login_required
def ladder_join(request, key: str):
    return _post(
        request,
        key,
        lambda: services.join(request.user, key),
        _("You joined the ladder at the bottom."),
    )


@require_POST
@login_required
def ladder_leave(request, key: str):
    return _post(request, key, lambda: services.leave(request.user, key), _("You left the ladder."))


@require_POST
@login_required
def ladder_challenge(request, key: str):
    opponent = request.POST.get("opponent", "")
    return _post(
        request,
        key,
        lambda: services.challenge(request.user, key, opponent),
        ngettext(
            "Challenge sent: they have %(n)d day to accept it.",
            "Challenge sent: they have %(n)d days to accept it.",
            rungs.accept_within().days,
        )
        % {"n": rungs.accept_within().days},
    )


def _challenge_key(pk: int) -> str:
    """The ladder a challenge belongs to, for the page a refusal shows."""
    key = (
        Challenge.objects.filter(pk=pk).values_list("ladder__game_key", flat=True).first()
        if pk < 2**63
        else None
    )
    if key is None:
        raise Http404(_("You have no such challenge."))
    return key


@require_POST
@login_required
def challenge_accept(request, pk: int):
    key = _challenge_key(pk)
    return _post(
        request,
        key,
        lambda: services.accept(request.user, pk),
        _("Challenge accepted: the match has started."),
        then=lambda challenge: reverse("match_detail", args=[challenge.match_id]),
    )


@require_POST
@login_required
def challenge_decline(request, pk: int):
    key = _challenge_key(pk)
    return _post(
        request,
        key,
        lambda: services.decline(request.user, pk),
        _("You declined the challenge: the challenger takes your place."),
    )

"""Quick match's page and buttons: thin views over ``matchmaking.selectors``
and ``matchmaking.services``. A refusal shows the page again with the reason
and the refusal's status; nothing was changed."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from core.errors import ServiceError
from games.engine import registry
from matchmaking import matching, selectors, services
from matchmaking.forms import ANY, QuickMatchForm


def _page(request, form: QuickMatchForm, error: str = "", status: int = 200):
    context = {
        "form": form,
        # Not ``form.game`` in the template: a form's own fields come first there.
        "game": form.game,
        "error": error,
        "games": registry.all(),
        "any": ANY,
        "counts": selectors.waiting_counts(),
        "requests": selectors.my_requests(request.user, recent=5),
        "widen": {
            "points": matching.WIDEN_POINTS,
            "hours": matching.WIDEN_HOURS,
            "most": matching.WIDEN_MAX,
        },
    }
    return render(request, "matchmaking/quick_match.html", context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
def quick_match(request):
    """The page (GET): how many wait, the player's requests, and the form
    once a game or any game is chosen. POST: a new request."""
    if request.method != "POST":
        return _page(request, QuickMatchForm(game_key=request.GET.get("game")))
    if not request.user.is_authenticated:
        return redirect(f"{reverse('account_login')}?next={request.path}")
    form = QuickMatchForm(request.POST)
    if not form.chosen:
        return _page(request, form, _("Choose a game, or any game."), 400)
    if not form.is_valid():
        return _page(request, form, _("Please correct the form below."), 400)
    data = form.cleaned_data
    try:
        services.request(
            request.user,
            game_key=form.game_key(),
            counts=data["counts"],
            clock_min=timedelta(seconds=data["clock_min"]),
            clock_max=timedelta(seconds=data["clock_max"]),
            rated=data["rated"],
            window=data["window"],
            options=form.chosen_options(),
            bots_after=data["bots_after"],
        )
    except ServiceError as refusal:
        return _page(request, form, refusal.message, refusal.status)
    messages.success(request, _("Your request waits: we tell you when a table forms."))
    return redirect("quick_match")


@require_POST
@login_required
def withdraw(request, pk: int):
    back = "lobby" if request.POST.get("next") == "lobby" else "quick_match"
    try:
        services.withdraw(request.user, pk)
    except ServiceError as refusal:
        form = QuickMatchForm()
        return _page(request, form, refusal.message, refusal.status)
    messages.success(request, _("Your quick-match request was withdrawn."))
    return redirect(back)

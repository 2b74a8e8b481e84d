"""Tournament pages: thin views over ``tournaments.selectors`` and ``tournaments.services``."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import ServiceError
from games.engine import registry
from tournaments import selectors, services
from tournaments.forms import CreateTournamentForm
from tournaments.models import Tournament


@require_GET
def tournament_list(request):
    return render(request, "tournaments/list.html", {"lists": selectors.tournament_lists()})


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def tournament_create(request):
    form = CreateTournamentForm(request.POST or None, game_key=request.GET.get("game"))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            data = form.cleaned_data
            try:
                tournament = services.create_tournament(
                    user=request.user,
                    name=data["name"],
                    game_key=data["game"],
                    table_size=data["n_seats"],
                    format=data["format"],
                    rounds=data.get("rounds") or 0,
                    starts_at=data["starts_at"],
                    min_entrants=data["min_entrants"],
                    max_entrants=data["max_entrants"],
                    options=form.chosen_options(),
                    rated=data["rated"],
                    time_per_move=timedelta(seconds=data["time_per_move"]),
                    time_bank=timedelta(seconds=data["time_bank"]),
                    time_bank_increment=timedelta(seconds=data["time_bank_increment"]),
                    timeout_policy=data["timeout_policy"],
                    takeover_level=data["takeover_level"],
                )
            except ServiceError as error:
                form.add_error(None, error.message)
                status = error.status
            else:
                return redirect("tournament_detail", tournament_id=tournament.pk)
        else:
            status = 400
    context = {"form": form, "games": registry.all(), "game": form.game}
    return render(request, "tournaments/create.html", context, status=status)


@require_GET
def tournament_detail(request, tournament_id: int):
    page = selectors.tournament_page(tournament_id, request.user)
    if page is None:
        raise Http404(_("There is no such tournament."))
    return render(request, "tournaments/detail.html", {"page": page})


# The messages are lazy: translated when shown, in the player's language.
ACTIONS = {
    "join": (services.join, gettext_lazy("You are entered.")),
    "leave": (services.leave, gettext_lazy("You left the tournament.")),
    "withdraw": (
        services.withdraw,
        gettext_lazy("You withdrew: your remaining matches are forfeited."),
    ),
}


@require_POST
@login_required
def tournament_action(request, tournament_id: int, action: str):
    if action not in ACTIONS:
        raise Http404(_("There is no such action."))
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(_("There is no such tournament."))
    service, done = ACTIONS[action]
    try:
        service(user=request.user, tournament=tournament)
    except ServiceError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, str(done))
    return redirect("tournament_detail", tournament_id=tournament_id)

"""Tournament pages: thin views over ``tournaments.selectors`` and ``tournaments.services``."""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from core.errors import NotFound, ServiceError
from games.engine import registry
from tournaments import chat, feed, selectors, services
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
                    start_when_full=data["start_when_full"],
                    min_entrants=data["min_entrants"],
                    max_entrants=data["max_entrants"],
                    options=form.chosen_options(),
                    rated=data["rated"],
                    time_per_move=timedelta(seconds=data["time_per_move"]),
                    time_bank=timedelta(seconds=data["time_bank"]),
                    time_bank_increment=timedelta(seconds=data["time_bank_increment"]),
                    timeout_policy=data["timeout_policy"],
                    takeover_level=data["takeover_level"],
                    vacation_allowed=data["vacation_allowed"],
                    weekend_pause=data["weekend_pause"],
                    min_reliability=data["min_reliability"],
                    bots_allowed=data["bots_allowed"],
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


@require_POST
@login_required
def tournament_webhooks(request, tournament_id: int):
    """The organiser's webhooks on the tournament (``tournaments.feed``): POST
    ``action`` ``add`` (``kind``, ``url``), ``test`` or ``remove``
    (``webhook``). A refusal is said on the page and changes nothing."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(_("There is no such tournament."))
    action = request.POST.get("action")
    hook = request.POST.get("webhook")
    try:
        if action == "add":
            feed.add_hook(
                request.user, tournament, request.POST.get("kind"), request.POST.get("url")
            )
            done = _("The webhook is added.")
        elif action == "test":
            done = feed.test_hook(request.user, tournament, hook)
        elif action == "remove":
            feed.remove_hook(request.user, tournament, hook)
            done = _("The webhook is removed.")
        else:
            raise ServiceError(_("Unknown action."))
    except NotFound as missing:
        raise Http404(missing.message) from None
    except ServiceError as error:
        messages.error(request, error.message)
        page = selectors.tournament_page(tournament_id, request.user)
        return render(request, "tournaments/detail.html", {"page": page}, status=error.status)
    messages.success(request, done)
    return redirect(reverse("tournament_detail", args=[tournament_id]) + "#tournament-webhooks")


@require_POST
def tournament_chat(request, tournament_id: int):
    """Write in the tournament's chat. A plain POST goes back to the page
    with a message; htmx gets the chat section again (with the refusal's
    reason and status when refused)."""
    tournament = Tournament.objects.filter(pk=tournament_id).first()
    if tournament is None:
        raise Http404(_("There is no such tournament."))
    error = None
    try:
        chat.post_message(request.user, tournament, request.POST.get("text", ""))
    except ServiceError as refused:
        error = refused
    if request.htmx:
        context = {
            "t": tournament,
            "chat": selectors.chat_lines(tournament.pk, request.user),
            "can_chat": chat.may_write(request.user, tournament),
            "chat_error": error.message if error else "",
        }
        return render(
            request, "tournaments/chat.html", context, status=error.status if error else 200
        )
    if error is not None:
        messages.error(request, error.message)
    return redirect(reverse("tournament_detail", args=[tournament_id]) + "#tournament-chat")

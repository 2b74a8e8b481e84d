"""Player pages, leaderboards and blocking: thin views over
``players.selectors`` and ``players.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import services as account_services
from accounts.selectors import not_accepting
from core.errors import ServiceError
from games.engine import registry
from players import sections, selectors


@require_GET
def player_page(request, username: str):
    page = selectors.page_number(request.GET.get("page"))
    data = selectors.player_page(username, request.user, page)
    if data is None:
        raise Http404(_("There is no such player."))
    profile = getattr(data.user, "profile", None)
    if profile is not None and not profile.page_public and not request.user.is_authenticated:
        return render(request, "players/hidden.html", {"ref": data.ref}, status=200)
    context = {
        "data": data,
        "is_me": request.user.is_authenticated and request.user.pk == data.user.pk,
        "sections": sections.sections_for(data.user, request.user),
        "not_accepting": not_accepting(),
    }
    return render(request, "players/player.html", context)


@require_POST
@login_required
def player_block(request, username: str):
    try:
        if request.POST.get("do") == "unblock":
            account_services.unblock(request.user, username)
            messages.success(request, _("You no longer block this player."))
        else:
            account_services.block(request.user, username)
            messages.success(
                request,
                _(
                    "Blocked: they can no longer invite you, join your open matches or write in your chats."
                ),
            )
    except ServiceError as error:
        if error.status == 404:
            raise Http404(error.message) from None
        messages.error(request, error.message)
    return redirect("player_page", username=username)


@require_GET
def leaderboards(request):
    games = registry.all()
    leaders = selectors.leaders([game.key for game in games], selectors.LEADERS_ON_INDEX)
    boards = [(game, leaders[game.key]) for game in games]
    return render(request, "players/leaderboards.html", {"boards": boards})


@require_GET
def leaderboard(request, key: str, bots: bool = False):
    """A game's leaderboard: the people's, or with ``bots`` the bot accounts'."""
    try:
        registry.get(key)
    except KeyError:
        raise Http404(_("There is no such game.")) from None
    page = selectors.page_number(request.GET.get("page"))
    board = selectors.leaderboard(key, page, request.user, bots=bots)
    return render(request, "players/leaderboard.html", {"board": board, "games": registry.all()})

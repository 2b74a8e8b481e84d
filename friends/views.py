"""The friends page and the Follow button: thin views over
``friends.selectors`` and ``friends.services``."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from core.errors import ServiceError
from friends import selectors, services


@require_GET
@login_required
def friends_page(request):
    """One's own friends, the players one follows and one's followers, with
    their presence."""
    return render(request, "friends/friends.html", {"page": selectors.friends_page(request.user)})


@require_POST
@login_required
def player_follow(request, username: str):
    """Follow or unfollow (``do=unfollow``) a player; back to their page, or
    to the friends page when the form came from there (``next=friends``)."""
    try:
        if request.POST.get("do") == "unfollow":
            services.unfollow(request.user, username)
            messages.success(request, _("You no longer follow this player."))
        else:
            services.follow(request.user, username)
            messages.success(request, _("You follow this player."))
    except ServiceError as error:
        if error.status == 404:
            raise Http404(error.message) from None
        messages.error(request, error.message)
    if request.POST.get("next") == "friends":
        return redirect(reverse("friends"))
    return redirect("player_page", username=username)

"""Pages of a match's past: the replay, the printable record and the archive.

Thin like ``games/views.py``: they parse the query, call ``games.history.replay`` or
``games.history.archive`` and render. Each answers 404 for a match the person may not
see, as every match page does.
"""

from __future__ import annotations

from django.shortcuts import redirect, render
from django.views.decorators.http import require_safe

from games.history import archive, replay
from games.play import access


@require_safe
def match_replay(request, pk: int):
    """Step N of the match (``?at=N``) as this person could see it then."""
    token = request.GET.get("token")
    match = access.get_match_for(pk, request.user, token)
    context = replay.replay_page(
        match, request.user, request.GET.get("at"), request.GET.get("as"), token
    )
    if context["redirect_to"]:
        return redirect(context["redirect_to"])
    return render(request, "games/match_replay.html", context)


@require_safe
def match_print(request, pk: int):
    """The whole match on one page, for paper (``?every=N``: and the board every N steps)."""
    token = request.GET.get("token")
    match = access.get_match_for(pk, request.user, token)
    context = replay.print_page(match, request.user, token, request.GET.get("every"))
    return render(request, "games/match_print.html", context, status=context["status"])


@require_safe
def match_archive(request):
    """Finished matches, filtered by game, player and date, a page at a time."""
    context = archive.archive_page(request.user, request.GET)
    return render(request, "games/match_archive.html", context, status=context["status"])

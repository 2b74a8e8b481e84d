"""Pages of a match's past: the replay, the printable record and the archive.

Thin like ``games/views.py``: they parse the query, call ``games.history.replay`` or
``games.history.archive`` and render. Each answers 404 for a match the person may not
see, as every match page does.
"""

from __future__ import annotations

from urllib.parse import urlencode

from django.shortcuts import redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from core.errors import ServiceError
from core.forms import whole_number
from games.history import archive, comments, replay
from games.play import access, reviews


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
    context.update(
        comments.replay_context(match, request.user, context["step"], _step_url(pk, token))
    )
    return render(request, "games/match_replay.html", context)


def _step_url(pk: int, token: str | None):
    """The address of step n of the replay, for a comment's link (the token kept)."""
    base = reverse("match_replay", args=[pk])

    def url(step: int) -> str:
        query = {"at": step, **({"token": token} if token else {})}
        return f"{base}?{urlencode(query)}#step-comments"

    return url


def _replay_after_post(request, match, step: int | None, error: ServiceError | None):
    """After a comment or a switch: back to the step (a redirect), or the step's
    page again saying why nothing was done, with the refusal's status."""
    token = request.POST.get("token") or None
    if error is None:
        return redirect(_step_url(match.pk, token)(step or 0))
    shown = str(step) if step is not None and step <= match.version else None
    context = replay.replay_page(match, request.user, shown, None, token)
    context.update(
        comments.replay_context(match, request.user, context["step"], _step_url(match.pk, token))
    )
    context["comment_error"] = error.message
    context["comment_text"] = request.POST.get("text", "")[: comments.MAX_LENGTH * 2]
    return render(request, "games/match_replay.html", context, status=error.status)


@require_POST
def match_replay_comment(request, pk: int):
    """A comment on one step of a finished match's replay."""
    match = access.get_match_for(pk, request.user, request.POST.get("token"))
    step = whole_number(request.POST.get("step"), 0)
    try:
        comments.post_comment(request.user, match, step, request.POST.get("text"))
    except ServiceError as error:
        return _replay_after_post(request, match, step, error)
    return _replay_after_post(request, match, step, None)


@require_POST
def match_replay_comments_public(request, pk: int):
    """A player lets anyone signed in comment on the finished public match's replay, or not."""
    match = access.get_match_for(pk, request.user, request.POST.get("token"))
    step = whole_number(request.POST.get("step"), 0)
    try:
        comments.set_public_comments(request.user, match, request.POST.get("allow") == "1")
    except ServiceError as error:
        return _replay_after_post(request, match, step, error)
    return _replay_after_post(request, match, step, None)


@require_POST
def match_replay_review(request, pk: int):
    """Ask for the computer review of a finished match from its replay; back to
    the step, or the step again saying why nothing was done."""
    token = request.POST.get("token") or None
    match = access.get_match_for(pk, request.user, token)
    step = whole_number(request.POST.get("step"), 0)
    try:
        reviews.request_review(user=request.user, match=match)
    except ServiceError as error:
        shown = str(step) if step is not None and step <= match.version else None
        context = replay.replay_page(match, request.user, shown, None, token)
        context.update(
            comments.replay_context(match, request.user, context["step"], _step_url(pk, token))
        )
        context["review_error"] = error.message
        return render(request, "games/match_replay.html", context, status=error.status)
    url = _step_url(pk, token)(step or 0).replace("#step-comments", "#review")
    return redirect(url)


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

"""Thin views: parse the request, call a service or selector, render.

Every mutating request is a POST with CSRF. Without htmx a POST answers
with a redirect; with htmx it answers with the fresh match panel. Refusals
carry a clear message and the right 4xx status, and change nothing.
"""

from __future__ import annotations

from datetime import timedelta

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import require_GET, require_POST

from games import chat, notifications, selectors, services
from games.engine import registry
from games.forms import ActionForm, CreateMatchForm, InviteForm
from games.verification import verify_match

PANEL = "games/match.html#panel"


def healthz(request):
    """A trivial view for load balancers and as a baseline in load tests."""
    return HttpResponse("ok", content_type="text/plain")


def lobby(request):
    user = request.user
    context = {"open_matches": selectors.open_public_matches(user), "games": registry.all()}
    if user.is_authenticated:
        context.update(
            my_matches=selectors.my_matches(user),
            finished=selectors.my_finished_matches(user),
            invitations=selectors.my_invitations(user),
        )
    return render(request, "games/lobby.html", context)


@login_required
def match_create(request):
    form = CreateMatchForm(request.POST or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                match = services.create_match(
                    user=request.user,
                    game_key=form.cleaned_data["game"],
                    n_seats=form.cleaned_data["n_seats"],
                    options=form.chosen_options(),
                    visibility=form.cleaned_data["visibility"],
                    time_per_move=timedelta(seconds=form.cleaned_data["time_per_move"]),
                    time_bank=timedelta(seconds=form.cleaned_data["time_bank"]),
                    time_bank_increment=timedelta(seconds=form.cleaned_data["time_bank_increment"]),
                    timeout_policy=form.cleaned_data["timeout_policy"],
                )
            except services.ServiceError as error:
                form.add_error(None, error.message)
                status = error.status
            else:
                return redirect("match_detail", pk=match.pk)
        else:
            status = 400
    return render(request, "games/match_create.html", {"form": form}, status=status)


def _path(request) -> list[str]:
    raw = request.GET.get("path", "")
    return [part for part in raw.split(".") if part][:10]


@require_GET
def match_detail(request, pk: int):
    token = request.GET.get("token")
    try:
        match = selectors.get_match_for(pk, request.user, token)
    except Http404:
        if request.user.is_authenticated:
            raise
        # Perhaps theirs once logged in (an emailed link to a private match):
        # log in, then come back. Every unknown id answers the same way.
        return redirect_to_login(request.get_full_path())
    services.record_visit(match, request.user)
    context = selectors.match_panel(match, request.user, _path(request))
    context["token"] = token
    context["invite_form"] = InviteForm()
    return render(request, "games/match.html", context)


@require_GET
def match_panel(request, pk: int):
    """The polled fragment: 204 while nothing changed, the fresh panel otherwise."""
    match = selectors.get_match_for(pk, request.user, request.GET.get("token"))
    if request.GET.get("since") == match.stamp and "path" not in request.GET:
        return HttpResponse(status=204)
    context = selectors.match_panel(match, request.user, _path(request))
    return render(request, PANEL, context)


def _answer(request, match_pk: int):
    """Reply to a successful POST: a redirect for plain forms, the fresh panel for htmx."""
    if not request.htmx:
        return redirect("match_detail", pk=match_pk)
    match = selectors.get_match_for(match_pk, request.user)
    return render(request, PANEL, selectors.match_panel(match, request.user))


def _refuse(request, pk: int, error: services.ServiceError):
    """Say why, with the right 4xx status; nothing was changed."""
    match = selectors.get_match_for(pk, request.user, request.POST.get("token"))
    context = selectors.match_panel(match, request.user)
    context["error"] = error.message
    if request.htmx:
        return render(request, PANEL, context, status=error.status)
    context["invite_form"] = InviteForm()
    context["token"] = request.POST.get("token")
    return render(request, "games/match.html", context, status=error.status)


def _post(request, pk: int, operation, success: str | None = None):
    """Run one service call for a POST and answer it (redirect, panel or refusal)."""
    match = selectors.get_match_for(pk, request.user, request.POST.get("token"))
    if not request.user.is_authenticated:
        return _refuse(request, pk, services.Forbidden(_("Please log in first.")))
    try:
        operation(match)
    except services.ServiceError as error:
        return _refuse(request, pk, error)
    if success and not request.htmx:
        messages.success(request, success)
    return _answer(request, pk)


@require_POST
def match_act(request, pk: int):
    form = ActionForm(request.POST)
    if not form.is_valid():
        message = " ".join(e for errors in form.errors.values() for e in errors)
        return _refuse(request, pk, services.ServiceError(message))
    return _post(
        request,
        pk,
        lambda m: services.submit_action(
            m, request.user, form.cleaned_data["action"], form.cleaned_data["version"]
        ),
    )


@require_POST
def match_join(request, pk: int):
    token = request.POST.get("token")
    return _post(
        request,
        pk,
        lambda m: services.join_match(user=request.user, match=m, token=token),
        _("You joined the match."),
    )


@require_POST
def match_leave(request, pk: int):
    response = _post(
        request,
        pk,
        lambda m: services.leave_match(user=request.user, match=m),
        _("You left the match."),
    )
    if response.status_code < 400 and not request.htmx:
        return redirect("lobby")
    return response


@require_POST
def match_invite(request, pk: int):
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _refuse(request, pk, services.ServiceError(_("Please give a username.")))
    return _post(
        request,
        pk,
        lambda m: services.invite_user(
            user=request.user, match=m, username=form.cleaned_data["username"]
        ),
        _("Invitation sent."),
    )


@require_POST
def match_fill_bots(request, pk: int):
    return _post(
        request,
        pk,
        lambda m: services.fill_with_bots(user=request.user, match=m),
        _("Bots took the empty seats; the match has started."),
    )


@require_POST
def match_chat(request, pk: int):
    text = request.POST.get("text", "")
    response = _post(request, pk, lambda m: chat.post_message(request.user, m, text))
    if request.htmx and response.status_code == 200:
        # A fresh, empty chat form replaces the one just sent (out of band).
        match = selectors.get_match_for(pk, request.user)
        form = render(request, "games/match.html#chat_form", {"match": match, "oob": True})
        response.content += form.content
    return response


@require_POST
def match_report(request, pk: int):
    message_id = request.POST.get("message")
    username = request.POST.get("player") or None
    if message_id is not None and not message_id.isdigit():
        return _refuse(request, pk, services.ServiceError(_("That message could not be found.")))
    return _post(
        request,
        pk,
        lambda m: chat.report(
            request.user,
            m,
            request.POST.get("reason", ""),
            message_id=int(message_id) if message_id else None,
            username=username,
        ),
        _("Thank you: a moderator will look at your report."),
    )


@require_GET
def match_log(request, pk: int):
    match = selectors.get_match_for(pk, request.user)
    return render(
        request,
        "games/match_log.html",
        {
            "match": match,
            "log": selectors.full_log(match, request.user),
        },
    )


@require_GET
def match_verify(request, pk: int):
    match = selectors.get_match_for(pk, request.user)
    report = verify_match(match) if match.seed_revealed else None
    return render(request, "games/match_verify.html", {"match": match, "report": report})


@require_GET
def match_log_json(request, pk: int):
    """The public move log as JSON, with the seed once the match is over, so
    anyone can replay it with their own copy of the rules."""
    match = selectors.get_match_for(pk, request.user)
    return JsonResponse(selectors.public_log(match), json_dumps_params={"indent": 1})


@require_GET
def invitation_link(request, token: str):
    """The shareable invitation link: shows the match with a join button."""
    match = services.Match.objects.filter(invite_token=token).first()
    if match is None:
        return render(request, "games/invalid_link.html", status=404)
    return redirect(reverse("match_detail", args=[match.pk]) + f"?token={token}")


@csrf_exempt
def unsubscribe(request, token: str):
    """One-click unsubscribe from an email link, no login needed (RFC 8058).

    GET shows a confirmation button; POST (from that button or from a mail
    client's one-click request) switches the preference to "never".
    """
    found = notifications.read_unsubscribe_token(token)
    if found is None:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=400)
    user_id, field = found
    if request.method == "POST":
        services.unsubscribe(user_id, field)
        return render(request, "games/unsubscribe.html", {"done": True, "field": field})
    return render(request, "games/unsubscribe.html", {"field": field, "token": token})


@login_required
def notification_list(request):
    """The bell: recent notifications, which are marked read by looking."""
    rows = selectors.recent_notifications(request.user)
    response = render(request, "games/notifications.html", {"rows": rows})
    services.mark_notifications_read(request.user)
    return response

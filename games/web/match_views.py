"""A match's pages and every write on them: the page and its panel, the move,
joining, leaving, inviting, filling with bots, resigning, undo, notes, the
rematch, chat and reports, the log, the fairness check, the JSON log and a
move made from an email's link.

Every mutating request is a POST with CSRF. Without htmx a POST answers
with a redirect; with htmx it answers with the fresh match panel. Refusals
carry a clear message and the right 4xx status, and change nothing."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.debug import sensitive_variables
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from accounts.middleware import apply_profile_preferences, defer_profile_preferences
from core.errors import Forbidden, ServiceError
from core.forms import whole_number
from games.correspondence import email_moves, thumbnails
from games.dispatch import notifications
from games.history import replay as history
from games.history.verification import verify_match
from games.live import offer as live_offer
from games.lobby.invitations import decline_invitation, invite_user
from games.lobby.services import (
    fill_with_bots,
    join_match,
    leave_match,
    rematch,
)
from games.models import Match, MatchStatus, Visibility
from games.panel import build, jinja, move_log
from games.panel.presenters import MatchUrls
from games.panel.thumbnails import thumbnail_url
from games.play import access, chat, hints, notes, reviews, safety, services
from games.web.forms import ActionForm, FillBotsForm, InviteForm


def _panel_response(request, context: dict, status: int = 200) -> HttpResponse:
    """The match panel fragment (games/panel.jinja, drawn by Jinja2 with its board)."""
    return HttpResponse(jinja.render(jinja.PANEL_TEMPLATE, context, request), status=status)


def _page(request, context: dict, status: int = 200) -> HttpResponse:
    """The match page: Django's frame around the same Jinja2 panel the poll draws."""
    context["panel_html"] = mark_safe(jinja.render(jinja.PANEL_TEMPLATE, context, request))
    return render(request, "games/match.html", context, status=status)


def _touch(request) -> bool:
    return request.COOKIES.get("smoki_touch") == "1"


def _panel(request, match, path: list[str] | None = None, **options) -> dict:
    """The match panel's context for this request's player and screen (``options``:
    ``build.match_panel``'s)."""
    return build.match_panel(match, request.user, path, touch=_touch(request), **options)


def _path(request) -> list[str]:
    raw = request.GET.get("path", "")
    return [part for part in raw.split(".") if part][:10]


@require_GET
def match_detail(request, pk: int):
    token = request.GET.get("token")
    try:
        match = access.get_match_for(pk, request.user, token)
    except Http404:
        if request.user.is_authenticated:
            raise
        # Perhaps theirs once logged in (an emailed link to a private match):
        # log in, then come back. Every unknown id answers the same way.
        return redirect_to_login(request.get_full_path())
    last_seen = history.last_look(match, request.user)
    notifications.record_visit(match, request.user)

    def catch_up(context) -> frozenset:
        """What the others did since this player's last look, in the log's
        words, and the board elements those moves changed (marked on it)."""
        rows = context.get("log_rows", [])
        context["catch_up"] = history.catch_up(
            match, request.user, last_seen, rows, context.get("log", [])
        )
        return history.catch_up_changes(match, request.user, context["catch_up"], rows)

    context = _panel(request, match, _path(request), changes=catch_up)
    context["token"] = token
    context["invite_form"] = InviteForm()
    context["fill_bots_form"] = FillBotsForm()
    context["note"] = notes.note_for(match, request.user, seated=context["me"] is not None)
    context["live_events"] = live_events_url(match, token)
    context["live_poll_seconds"] = settings.SMOKI["LIVE_POLL_SECONDS"]
    context["can_offer_live"] = live_offer.can_offer(match, request.user)
    return _page(request, context)


def live_events_url(match: Match, token: str | None) -> str | None:
    """Where the page's script hears of changes (None once the match is over)."""
    if match.status in (MatchStatus.FINISHED, MatchStatus.ABORTED):
        return None
    url = reverse("match_events", args=[match.pk])
    return f"{url}?{urlencode({'token': token})}" if token else url


@defer_profile_preferences
@require_GET
def match_panel(request, pk: int):
    """The polled fragment: 204 while nothing changed, the fresh panel otherwise.

    Open pages ask every few seconds, so "nothing changed" is answered from the
    match's stamp alone (``access.stamp_for``: no state, no seats, no
    profile, access still checked); only a changed match is loaded and drawn,
    in the player's language.
    """
    token = request.GET.get("token")
    since = request.GET.get("since")
    if (
        since
        and "path" not in request.GET
        and since == access.stamp_for(pk, request.user, token, request.session.get(SESSION_KEY))
    ):
        return HttpResponse(status=204)
    apply_profile_preferences(request)
    match = access.get_match_for(pk, request.user, token)
    context = _panel(request, match, _path(request))
    return _panel_response(request, context)


def _answer(request, match_pk: int, match: Match | None = None, **options):
    """Reply to a successful POST: a redirect for plain forms, the fresh panel for htmx.

    ``match``: the match as the write left it, with its seats (a move's
    locked rows), drawn without reading it again. ``options``, for a move:
    ``new_moves``, the log's rows the page lacks when it keeps its log
    (``move_log.log_answer``); ``page_keeps``, whether the page keeps the
    parts no move changes (``build.page_keeps``); ``answers_move``."""
    if not request.htmx:
        return redirect("match_detail", pk=match_pk)
    if match is None:
        try:
            match = access.get_match_for(match_pk, request.user)
        except Http404:
            # The write took this person's view away (they left a private
            # match): the page goes to the lobby rather than answering 404.
            return HttpResponse(headers={"HX-Redirect": reverse("lobby")})
    response = _panel_response(request, _panel(request, match, **options))
    # The address bar leaves any half-chosen move behind: a reload shows the fresh turn.
    response["HX-Replace-Url"] = MatchUrls.of(match_pk).detail
    return response


def _refuse(request, pk: int, error: ServiceError):
    """Say why, with the right 4xx status; nothing was changed."""
    match = access.get_match_for(pk, request.user, request.POST.get("token"))
    context = _panel(request, match)
    context["error"] = error.message
    if request.htmx:
        return _panel_response(request, context, status=error.status)
    context["invite_form"] = InviteForm()
    context["fill_bots_form"] = FillBotsForm()
    context["token"] = request.POST.get("token")
    return _page(request, context, status=error.status)


def _post(request, pk: int, operation, success: str | None = None):
    """Run one service call for a POST and answer it (redirect, panel or refusal)."""
    match = access.get_match_for(pk, request.user, request.POST.get("token"))
    if not request.user.is_authenticated:
        return _refuse(request, pk, Forbidden(_("Please log in first.")))
    try:
        operation(match)
    except ServiceError as error:
        return _refuse(request, pk, error)
    if success and not request.htmx:
        messages.success(request, success)
    return _answer(request, pk)


@require_POST
def match_act(request, pk: int):
    """A move. The match is not read before the write: the move's own locked
    read checks the seat (only a seated player may move, and a seat means the
    match is theirs to see), and the answer is drawn from the rows it locked.
    Any refusal goes through ``_refuse``, which checks access first, so a
    private match still answers 404 to everyone else."""
    form = ActionForm(request.POST)
    if not form.is_valid():
        message = " ".join(e for errors in form.errors.values() for e in errors)
        return _refuse(request, pk, ServiceError(message))
    if not request.user.is_authenticated:
        return _refuse(request, pk, Forbidden(_("Please log in first.")))
    try:
        move = services.submit_player_action(
            pk, request.user, form.cleaned_data["action"], form.cleaned_data["version"]
        )
    except ServiceError as error:
        return _refuse(request, pk, error)
    if not request.htmx:
        return _answer(request, pk)
    shown = request.headers.get(move_log.LOG_SHOWN_HEADER)
    panel = request.headers.get(build.PANEL_SHOWN_HEADER)
    return _answer(
        request,
        pk,
        move.match,
        new_moves=move_log.log_answer(shown, move),
        page_keeps=build.page_keeps(panel, move),
        answers_move=True,
    )


@require_POST
def match_join(request, pk: int):
    token = request.POST.get("token")
    return _post(
        request,
        pk,
        lambda m: join_match(user=request.user, match=m, token=token),
        _("You joined the match."),
    )


@require_POST
def match_leave(request, pk: int):
    response = _post(
        request,
        pk,
        lambda m: leave_match(user=request.user, match=m),
        _("You left the match."),
    )
    if response.status_code < 400 and not request.htmx:
        return redirect("lobby")
    return response


@require_POST
def match_invite(request, pk: int):
    form = InviteForm(request.POST)
    if not form.is_valid():
        return _refuse(request, pk, ServiceError(_("Please give a username.")))
    return _post(
        request,
        pk,
        lambda m: invite_user(user=request.user, match=m, username=form.cleaned_data["username"]),
        _("Invitation sent."),
    )


@require_POST
def match_decline(request, pk: int):
    """Decline an invitation, from wherever it is listed; back to where it was."""
    response = _post(
        request,
        pk,
        lambda m: decline_invitation(user=request.user, match=m),
        _("Invitation declined."),
    )
    if response.status_code < 400 and not request.htmx:
        return redirect(request.POST.get("next") == "notifications" and "notifications" or "lobby")
    return response


@require_POST
def match_fill_bots(request, pk: int):
    """The creator fills the empty seats with bots of the chosen level (default heuristic)."""
    form = FillBotsForm(request.POST)
    if not form.is_valid():
        return _refuse(request, pk, ServiceError(_("Choose one of the bot levels.")))
    return _post(
        request,
        pk,
        lambda m: fill_with_bots(user=request.user, match=m, level=form.cleaned_data["level"]),
        _("Bots took the empty seats; the match has started."),
    )


@require_POST
def match_resign(request, pk: int):
    return _post(
        request,
        pk,
        lambda m: safety.resign(user=request.user, match=m),
        _("You resigned."),
    )


@require_POST
def match_undo(request, pk: int):
    """Ask to take back your last move, or agree to or refuse another's request."""
    answer = request.POST.get("answer")
    if answer not in ("ask", "agree", "refuse"):
        return _refuse(request, pk, ServiceError(_("That answer is not understood.")))
    if answer == "ask":
        operation = lambda m: safety.ask_undo(user=request.user, match=m)  # noqa: E731
    else:
        operation = lambda m: safety.answer_undo(  # noqa: E731
            user=request.user, match=m, agree=answer == "agree"
        )
    return _post(request, pk, operation)


@require_POST
def match_hint(request, pk: int):
    """Ask the strong bot for a hint in a practice match (``games.play.hints``)."""
    version = whole_number(request.POST.get("version", ""), 0, 10**9)
    if version is None:
        return _refuse(request, pk, ServiceError(_("That form is out of date; reload the page.")))
    return _post(request, pk, lambda m: hints.ask(user=request.user, match=m, version=version))


@require_POST
def match_review(request, pk: int):
    """Ask for the computer review of a finished match from its end banner
    (``games.play.reviews``): refused, nothing written, while it is in play."""
    return _post(
        request,
        pk,
        lambda m: reviews.request_review(user=request.user, match=m),
        _("The review is being computed; it appears here when it is ready."),
    )


@require_POST
def match_notes(request, pk: int):
    """Save the player's private notes on the match; they stay outside the polled panel."""
    text = request.POST.get("text", "")
    match = access.get_match_for(pk, request.user)
    try:
        notes.save_note(request.user, match, text)
    except ServiceError as error:
        return _refuse(request, pk, error)
    if request.htmx:
        return render(
            request, "games/match.html#notes", {"match": match, "note": text.strip(), "saved": True}
        )
    messages.success(request, _("Your notes are saved."))
    return redirect("match_detail", pk=pk)


@require_POST
def match_rematch(request, pk: int):
    """Ask for a rematch (or find the one already asked for) and go there."""
    match = access.get_match_for(pk, request.user)
    if not request.user.is_authenticated:
        return _refuse(request, pk, Forbidden(_("Please log in first.")))
    try:
        new = rematch(user=request.user, match=match)
    except ServiceError as error:
        return _refuse(request, pk, error)
    url = reverse("match_detail", args=[new.pk])
    if request.htmx:
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


@require_POST
def match_chat(request, pk: int):
    text = request.POST.get("text", "")
    response = _post(request, pk, lambda m: chat.post_message(request.user, m, text))
    if request.htmx and response.status_code == 200:
        # A fresh, empty chat form replaces the one just sent (out of band).
        match = access.get_match_for(pk, request.user)
        form = jinja.render(jinja.CHAT_FORM_TEMPLATE, {"match": match, "oob": True}, request)
        response.content += form.encode()
    return response


@require_POST
def match_report(request, pk: int):
    message_id = request.POST.get("message")
    username = request.POST.get("player") or None
    if message_id is not None:
        message_id = whole_number(message_id, 1)
        if message_id is None:
            return _refuse(request, pk, ServiceError(_("That message could not be found.")))
    return _post(
        request,
        pk,
        lambda m: chat.report(
            request.user,
            m,
            request.POST.get("reason", ""),
            message_id=message_id,
            username=username,
        ),
        _("Thank you: a moderator will look at your report."),
    )


@require_GET
def match_log(request, pk: int):
    match = access.get_match_for(pk, request.user, request.GET.get("token"))
    return render(
        request,
        "games/match_log.html",
        {
            "match": match,
            "log": move_log.full_log(match, request.user),
            # Each person's name in the log links to their page, as on the match page.
            "player_links": build.player_links(list(match.seats.select_related("user"))),
        },
    )


@sensitive_variables("token")
@require_http_methods(["GET", "POST"])
def email_move(request, pk: int, token: str):
    """A move offered in the "your turn" email: GET shows it with one button
    (and changes nothing), POST makes it. Works logged out, for that one move."""
    try:
        seen = email_moves.look(pk, token)
    except ServiceError as error:
        return render(request, "games/email_move.html", {"error": error.message}, status=404)
    context = {"seen": seen, "match": seen.match, "token": token}
    if request.method == "POST" and seen.status == email_moves.VALID:
        try:
            email_moves.play(pk, token)
        except ServiceError as error:
            context["error"] = error.message
            return render(request, "games/email_move.html", context, status=error.status)
        context["done"] = True
        context["next"] = email_moves.after(pk, token)
    return render(request, "games/email_move.html", context)


@require_GET
def match_verify(request, pk: int):
    match = access.get_match_for(pk, request.user, request.GET.get("token"))
    report = verify_match(match) if match.seed_revealed else None
    return render(request, "games/match_verify.html", {"match": match, "report": report})


@require_GET
def match_log_json(request, pk: int):
    """The public move log as JSON, with the seed once the match is over, so
    anyone can replay it with their own copy of the rules."""
    match = access.get_match_for(pk, request.user, request.GET.get("token"))
    return JsonResponse(move_log.public_log(match), json_dumps_params={"indent": 1})


@require_safe
def match_thumbnail(request, pk: int):
    """A match's thumbnail: the spectator's board, small (a list's <img>).
    Only for whoever may see the match (404 otherwise, as the match page),
    and only while it is in play. The URL names the version it shows
    (``?v=``): that answer never changes and the browser keeps it; any other
    ``v`` gets today's picture, which it must ask for again."""
    match = access.get_match_for(pk, request.user, request.GET.get("token"))
    if thumbnail_url(match) is None:
        raise Http404("No position to show.")
    response = HttpResponse(thumbnails.thumbnail_png(match), content_type="image/png")
    private = match.visibility != Visibility.PUBLIC
    if request.GET.get("v") == str(match.version):
        scope = "private" if private else "public"
        response["Cache-Control"] = f"{scope}, max-age=31536000, immutable"
    else:
        response["Cache-Control"] = "no-cache" + (", private" if private else "")
    return response

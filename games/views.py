"""Thin views: parse the request, call a service or selector, render.

Every mutating request is a POST with CSRF. Without htmx a POST answers
with a redirect; with htmx it answers with the fresh match panel. Refusals
carry a clear message and the right 4xx status, and change nothing.
"""

from __future__ import annotations

import re
from datetime import timedelta

from django.contrib import messages
from django.contrib.auth import SESSION_KEY
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.cache import caches
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from accounts import services as account_services
from accounts.middleware import apply_profile_preferences, defer_profile_preferences
from games import (
    chat,
    email_moves,
    icons,
    jinja,
    limits,
    notes,
    notifications,
    safety,
    selectors,
    services,
)
from games import replay as history
from games.engine import registry
from games.errors import Forbidden, ServiceError
from games.forms import (
    ActionForm,
    CreateMatchForm,
    FillBotsForm,
    InviteForm,
    PlayBotForm,
    whole_number,
)
from games.lobby import (
    create_match,
    decline_invitation,
    fill_with_bots,
    invite_user,
    join_match,
    leave_match,
    play_bot,
    rematch,
)
from games.models import Match
from games.presenters import MatchUrls
from games.verification import verify_match


def _panel_response(request, context: dict, status: int = 200) -> HttpResponse:
    """The match panel fragment (games/panel.jinja, drawn by Jinja2 with its board)."""
    return HttpResponse(jinja.render(jinja.PANEL_TEMPLATE, context, request), status=status)


def _page(request, context: dict, status: int = 200) -> HttpResponse:
    """The match page: Django's frame around the same Jinja2 panel the poll draws."""
    context["panel_html"] = mark_safe(jinja.render(jinja.PANEL_TEMPLATE, context, request))
    return render(request, "games/match.html", context, status=status)


# What secrets.token_urlsafe makes: anything else is no invitation of ours.
INVITE_TOKEN = re.compile(r"[A-Za-z0-9_-]{1,64}")


@require_safe
def healthz(request):
    """A trivial view for load balancers and as a baseline in load tests."""
    return HttpResponse("ok", content_type="text/plain")


@require_safe
def readyz(request):
    """Ready to serve: the database answers one query. For load balancers, and
    the one-query baseline that load tests and benchmarks measure against.

    The cache is not needed to serve (config/cache.py), so a lost Redis keeps
    this at 200; the body says so for whoever reads it. Nothing here talks to
    Redis: it only reports whether this process is answering without it."""
    Match.objects.filter(pk=0).exists()
    available = getattr(caches["default"], "available", None)
    if available is not None and not available():
        return HttpResponse(
            "ready; cache unreachable, answering without it", content_type="text/plain"
        )
    return HttpResponse("ready", content_type="text/plain")


@require_safe
def lobby(request):
    user = request.user
    context = {
        "open_matches": selectors.open_public_matches(user),
        "games": selectors.game_tiles(),
        "play_bot_form": PlayBotForm(),
    }
    if user.is_authenticated:
        context.update(
            my_matches=selectors.my_matches(user),
            finished=selectors.my_finished_matches(user),
            invitations=selectors.my_invitations(user),
        )
    return render(request, "games/lobby.html", context)


@require_GET
def about(request):
    """What Smoki is and whose work it shows: the icons' authors and their licence
    (CC BY 3.0 asks for the credit), from the same file the icons are drawn from."""
    return render(
        request, "games/about.html", {"credits": icons.credits(), "icons": icons.collection()}
    )


@require_GET
def favicon(request):
    """Browsers ask for /favicon.ico whatever the page links; send them to the SVG icon."""
    return redirect(static("icons/favicon.svg"), permanent=True)


# Bump to drop every cached static file at once (hashed names change anyway).
SERVICE_WORKER_VERSION = 1


@require_safe
def manifest(request):
    """The web app manifest: Smoki on a phone's home screen, with its icons
    and colours, opening at the lobby."""
    data = {
        "name": "Smoki",
        "short_name": "Smoki",
        "description": _("Dragon board games, played slowly."),
        "start_url": reverse("lobby"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#faf6f0",
        "theme_color": "#b4321f",
        "icons": [
            {"src": static("icons/icon-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("icons/icon-512.png"), "sizes": "512x512", "type": "image/png"},
            {"src": static("icons/favicon.svg"), "sizes": "any", "type": "image/svg+xml"},
        ],
    }
    return JsonResponse(data, content_type="application/manifest+json")


@require_safe
def service_worker(request):
    """The service worker, served from the root so that its scope is the
    whole site; it caches static files only (templates/pwa/sw.js). The
    static prefix is STATIC_URL itself: ``static("")`` asks the production
    storage's manifest for a file named "", which it does not hold."""
    from django.templatetags.static import PrefixNode

    response = render(
        request,
        "pwa/sw.js",
        {
            "version": SERVICE_WORKER_VERSION,
            "static_prefix": PrefixNode.handle_simple("STATIC_URL"),
        },
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def icon_sprite(request):
    """The game-icons sprite the pages' icons refer to (games/icons.py). Its URL
    carries a hash of its content, so browsers may keep it for a year."""
    response = HttpResponse(icons.sprite(), content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_GET
def watch(request):
    """Live public matches anyone may watch, the most recently active first."""
    return render(request, "games/watch.html", {"live": selectors.live_public_matches()})


@require_GET
def how_to_play(request, key: str):
    """A game's rules in the player's language, from the game's own package.

    A game that has not written its page yet answers 404 with a clear word
    rather than an error (the conformance kit fails such a game).
    """
    try:
        entry = registry.registration(key)
    except KeyError:
        raise Http404(_("There is no such game.")) from None
    context = {"game": entry.rules, "play_bot_form": PlayBotForm()}
    if not entry.has_how_to_play:
        context["missing"] = True
        return render(request, "games/how_to_play.html", context, status=404)
    return render(request, entry.how_to_play_template, context)


@require_POST
def match_play_bot(request, key: str):
    """One click: a match against a bot of the chosen level, started at once.

    A refusal (an unknown level, too many new matches) shows the game's How
    to play page again with the reason, and changes nothing.
    """
    try:
        entry = registry.registration(key)
    except KeyError:
        raise Http404(_("There is no such game.")) from None
    back = reverse("how_to_play", args=[key])
    if not request.user.is_authenticated:
        return redirect_to_login(back)
    form = PlayBotForm(request.POST)
    if not form.is_valid():
        return _refuse_play_bot(request, entry, form, _("Choose one of the bot levels."), 400)
    try:
        limits.check(
            limits.MATCH,
            request.user.pk,
            message=_("You have created many matches lately; wait an hour."),
        )
        match = play_bot(user=request.user, game_key=key, level=form.cleaned_data["level"])
    except ServiceError as error:
        return _refuse_play_bot(request, entry, form, error.message, error.status)
    return redirect("match_detail", pk=match.pk)


def _refuse_play_bot(request, entry, form, message: str, status: int):
    context = {"game": entry.rules, "play_bot_form": form, "play_bot_error": message}
    template = entry.how_to_play_template if entry.has_how_to_play else "games/how_to_play.html"
    return render(request, template, context, status=status)


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def match_create(request):
    form = CreateMatchForm(request.POST or None, game_key=request.GET.get("game"))
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                limits.check(
                    limits.MATCH,
                    request.user.pk,
                    message=_("You have created many matches lately; wait an hour."),
                )
                match = create_match(
                    user=request.user,
                    game_key=form.cleaned_data["game"],
                    n_seats=form.cleaned_data["n_seats"],
                    options=form.chosen_options(),
                    visibility=form.cleaned_data["visibility"],
                    time_per_move=timedelta(seconds=form.cleaned_data["time_per_move"]),
                    time_bank=timedelta(seconds=form.cleaned_data["time_bank"]),
                    time_bank_increment=timedelta(seconds=form.cleaned_data["time_bank_increment"]),
                    timeout_policy=form.cleaned_data["timeout_policy"],
                    takeover_level=form.cleaned_data["takeover_level"],
                    rated=form.cleaned_data["rated"],
                    min_rating=form.cleaned_data["min_rating"],
                    max_rating=form.cleaned_data["max_rating"],
                )
            except ServiceError as error:
                form.add_error(None, error.message)
                status = error.status
            else:
                return redirect("match_detail", pk=match.pk)
        else:
            status = 400
    # Without a game chosen yet, the first step offers the games (no script needed).
    context = {"form": form, "games": registry.all(), "game": form.game}
    return render(request, "games/match_create.html", context, status=status)


def _touch(request) -> bool:
    return request.COOKIES.get("smoki_touch") == "1"


def _panel(request, match, path: list[str] | None = None, **options) -> dict:
    """The match panel's context for this request's player and screen (``options``:
    ``selectors.match_panel``'s)."""
    return selectors.match_panel(match, request.user, path, touch=_touch(request), **options)


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
    return _page(request, context)


@defer_profile_preferences
@require_GET
def match_panel(request, pk: int):
    """The polled fragment: 204 while nothing changed, the fresh panel otherwise.

    Open pages ask every few seconds, so "nothing changed" is answered from the
    match's stamp alone (``selectors.stamp_for``: no state, no seats, no
    profile, access still checked); only a changed match is loaded and drawn,
    in the player's language.
    """
    token = request.GET.get("token")
    since = request.GET.get("since")
    if (
        since
        and "path" not in request.GET
        and since == selectors.stamp_for(pk, request.user, token, request.session.get(SESSION_KEY))
    ):
        return HttpResponse(status=204)
    apply_profile_preferences(request)
    match = selectors.get_match_for(pk, request.user, token)
    context = _panel(request, match, _path(request))
    return _panel_response(request, context)


def _answer(request, match_pk: int, match: Match | None = None, **options):
    """Reply to a successful POST: a redirect for plain forms, the fresh panel for htmx.

    ``match``: the match as the write left it, with its seats (a move's
    locked rows), drawn without reading it again. ``options``, for a move:
    ``new_moves``, the log's rows the page lacks when it keeps its log
    (``selectors.log_answer``); ``page_keeps``, whether the page keeps the
    parts no move changes (``selectors.page_keeps``); ``answers_move``."""
    if not request.htmx:
        return redirect("match_detail", pk=match_pk)
    if match is None:
        try:
            match = selectors.get_match_for(match_pk, request.user)
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
    match = selectors.get_match_for(pk, request.user, request.POST.get("token"))
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
    match = selectors.get_match_for(pk, request.user, request.POST.get("token"))
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
    shown = request.headers.get(selectors.LOG_SHOWN_HEADER)
    panel = request.headers.get(selectors.PANEL_SHOWN_HEADER)
    return _answer(
        request,
        pk,
        move.match,
        new_moves=selectors.log_answer(shown, move),
        page_keeps=selectors.page_keeps(panel, move),
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
def match_notes(request, pk: int):
    """Save the player's private notes on the match; they stay outside the polled panel."""
    text = request.POST.get("text", "")
    match = selectors.get_match_for(pk, request.user)
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
    match = selectors.get_match_for(pk, request.user)
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
        match = selectors.get_match_for(pk, request.user)
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
    match = selectors.get_match_for(pk, request.user, request.GET.get("token"))
    return render(
        request,
        "games/match_log.html",
        {
            "match": match,
            "log": selectors.full_log(match, request.user),
        },
    )


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
    return render(request, "games/email_move.html", context)


@require_GET
def match_verify(request, pk: int):
    match = selectors.get_match_for(pk, request.user, request.GET.get("token"))
    report = verify_match(match) if match.seed_revealed else None
    return render(request, "games/match_verify.html", {"match": match, "report": report})


@require_GET
def match_log_json(request, pk: int):
    """The public move log as JSON, with the seed once the match is over, so
    anyone can replay it with their own copy of the rules."""
    match = selectors.get_match_for(pk, request.user, request.GET.get("token"))
    return JsonResponse(selectors.public_log(match), json_dumps_params={"indent": 1})


@require_safe
def invitation_link(request, token: str):
    """The shareable invitation link: shows the match with a join button."""
    match = (
        Match.objects.filter(invite_token=token).first() if INVITE_TOKEN.fullmatch(token) else None
    )
    if match is None:
        return render(request, "games/invalid_link.html", status=404)
    return redirect(reverse("match_detail", args=[match.pk]) + f"?token={token}")


@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
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
        account_services.unsubscribe(user_id, field)
        return render(request, "games/unsubscribe.html", {"done": True, "field": field})
    return render(request, "games/unsubscribe.html", {"field": field, "token": token})


@require_safe
@login_required
def notification_list(request):
    """The bell: recent notifications, which are marked read by looking."""
    rows = selectors.recent_notifications(request.user)
    response = render(request, "games/notifications.html", {"rows": rows})
    notifications.mark_notifications_read(request.user)
    return response

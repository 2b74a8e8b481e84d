"""The site's pages and forms outside a match: the lobby, Watch, about, How to
play, the new-match form, "Play a bot now", the invitation link,
unsubscribing, the bell's page, and what a browser or a load balancer asks
of the site (health, manifest, service worker, icons).

Thin views: parse the request, call a service or selector, render; every
refusal a clear 4xx that changes nothing."""

from __future__ import annotations

import re
from functools import partial

from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.cache import caches
from django.http import Http404, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.templatetags.static import PrefixNode, static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.csrf import csrf_exempt
from django.views.decorators.debug import sensitive_variables
from django.views.decorators.http import (
    require_GET,
    require_http_methods,
    require_POST,
    require_safe,
)

from accounts import services as account_services
from accounts.refs import ref_for_user
from accounts.selectors import not_accepting
from core import limits
from core.errors import ServiceError
from games.correspondence import compose, inbox
from games.dispatch import notifications
from games.engine import registry
from games.lobby import listings, sections
from games.lobby.invitations import challenge_refusal
from games.lobby.services import (
    challenge,
    create_match,
    play_bot,
)
from games.models import Match
from games.panel import icons
from games.web.forms import (
    CreateMatchForm,
    PlayBotForm,
)

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
    tiles = listings.game_tiles()
    context = {
        "open_matches": listings.open_public_matches(user),
        "games": tiles,
        "tile_icons": tuple(tile.icon for tile in tiles),
        "play_bot_form": PlayBotForm(),
        "sections": sections.sections_for(user),
    }
    if user.is_authenticated:
        my_matches = listings.my_matches(user)
        context.update(
            my_matches=my_matches,
            finished=listings.my_finished_matches(user),
            invitations=listings.my_invitations(user),
            preload_image=first_thumbnail(my_matches),
        )
    return render(request, "games/lobby.html", context)


def first_thumbnail(rows) -> str | None:
    """The address of the first row's board picture, which a phone paints
    as the page's largest content: named in the page's head
    (``preload_image`` in base.html), it is fetched from the first bytes
    on, ahead of the page's scripts and the other pictures, instead of once
    the table is read."""
    first = rows[0].thumb if rows else None
    return first.url if first else None


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
    response = render(
        request,
        "pwa/sw.js",
        {
            "version": SERVICE_WORKER_VERSION,
            "static_prefix": PrefixNode.handle_simple("STATIC_URL"),
            "icon": static("icons/icon-192.png"),
        },
        content_type="text/javascript",
    )
    response["Cache-Control"] = "no-cache"
    return response


@require_safe
def icon_sprite(request):
    """The game-icons sprite the pages' icons refer to (games/panel/icons.py), or
    with ``?icons=a,b`` the sprite of only those (the lobby's game cards;
    ``icons.sprite_url``). Its URL carries a hash of its content, so browsers
    may keep it for a year. An unknown icon, or one named twice, is a 404:
    the answer is never larger than the whole sprite."""
    only = request.GET.get("icons")
    names = tuple(only.split(",")) if only else None
    if names is not None and len(set(names)) != len(names):
        raise Http404("An icon named twice.")
    try:
        drawn = icons.sprite(names)
    except KeyError:
        raise Http404("No such icon.") from None
    response = HttpResponse(drawn, content_type="image/svg+xml")
    response["Cache-Control"] = "public, max-age=31536000, immutable"
    return response


@require_GET
def watch(request):
    """Live public matches anyone may watch, the most recently active first;
    for a signed-in player, those of their friends apart, above."""
    context = {
        "live": listings.live_public_matches(),
        "friends_live": listings.friends_live_matches(request.user),
    }
    return render(request, "games/watch.html", context)


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


def _invited(request) -> str:
    """The player a new match is to invite (``?invite=``, or the posted form's),
    as typed: checked by ``challenge_refusal``."""
    raw = request.POST.get("invite") if request.method == "POST" else request.GET.get("invite")
    return raw.strip()[:150] if isinstance(raw, str) else ""


@require_http_methods(["GET", "HEAD", "POST"])
@login_required
def match_create(request):
    """The new-match form; with ``?invite=<username>`` (a player page's
    "Challenge") the match is created with that player invited, through the
    invitation service, or not at all."""
    invite = _invited(request)
    invitee, refusal = challenge_refusal(request.user, invite) if invite else (None, None)
    data = request.POST or None
    if refusal:
        # The form no longer carries the refused invitation: said once, not posted again.
        invite, invitee = "", None
        if data is not None:
            data = data.copy()
            data["invite"] = ""
    form = CreateMatchForm(data, game_key=request.GET.get("game"), invite=invite)
    status = 200
    if request.method == "POST":
        if refusal:
            form.is_valid()
            status = 403 if refusal == not_accepting() else 400
        elif form.is_valid():
            create = create_match if not invite else partial(challenge, username=invite)
            try:
                limits.check(
                    limits.MATCH,
                    request.user.pk,
                    message=_("You have created many matches lately; wait an hour."),
                )
                match = create(user=request.user, **form.service_kwargs())
            except ServiceError as error:
                form.add_error(None, error.message)
                status = error.status
            else:
                return redirect("match_detail", pk=match.pk)
        else:
            status = 400
    # Without a game chosen yet, the first step offers the games (no script needed).
    context = {
        "form": form,
        "games": registry.all(),
        "game": form.game,
        "invite": invite,
        "invitee": ref_for_user(invitee) if invitee is not None else None,
        "refusal": refusal,
    }
    return render(request, "games/match_create.html", context, status=status)


@sensitive_variables("token")
@require_safe
def invitation_link(request, token: str):
    """The shareable invitation link: shows the match with a join button."""
    match = (
        Match.objects.filter(invite_token=token).first() if INVITE_TOKEN.fullmatch(token) else None
    )
    if match is None:
        return render(request, "games/invalid_link.html", status=404)
    return redirect(reverse("match_detail", args=[match.pk]) + f"?token={token}")


@sensitive_variables("token")
@csrf_exempt
@require_http_methods(["GET", "HEAD", "POST"])
def unsubscribe(request, token: str):
    """One-click unsubscribe from an email link, no login needed (RFC 8058).

    GET shows a confirmation button; POST (from that button or from a mail
    client's one-click request) switches the preference to "never".
    """
    found = compose.read_unsubscribe_token(token)
    if found is None:
        return render(request, "games/unsubscribe.html", {"invalid": True}, status=400)
    user_id, field = found
    if request.method == "POST":
        account_services.unsubscribe(user_id, field)
        return render(request, "games/unsubscribe.html", {"done": True, "field": field})
    return render(request, "games/unsubscribe.html", {"field": field, "token": token})


@require_safe
@login_required
def notifications_sent(request):
    """What was sent: the player's last 100 notifications with each channel's
    outcome and the reason in words. Looking here marks nothing read."""
    return render(
        request, "games/notifications_sent.html", {"rows": inbox.sent_history(request.user)}
    )


@require_safe
@login_required
def notification_list(request):
    """The bell: recent notifications, which are marked read by looking."""
    rows = inbox.recent_notifications(request.user)
    response = render(request, "games/notifications.html", {"rows": rows})
    notifications.mark_notifications_read(request.user)
    return response

"""Bot accounts: players whose moves come from a program through the API.

A bot account is not the site's own computer player (``Seat.is_bot``, which
plays an empty or abandoned seat): it is a person's account, turned into a
bot by its owner from the profile before its first match (irreversible), so
that a program plays it with a token carrying ``bot:play``
(``docs/api.md``, "Bot accounts"). Everywhere a name is shown it carries a
BOT mark (``accounts.refs.PlayerRef``); it never enters the humans' pools
(quick match, seasons, rated open matches) unless a player invites it; its
ratings stand on a board of their own (``Rating.bot``); and its site pages
are read-only (``BotReadOnlyMiddleware``): it plays through the API alone.

This module holds the account's side (what a bot account is, turning into
one, the read-only pages); the matches' side (joining, the daily limit of
matches between bots) is ``games.play.bot_accounts``.
"""

from __future__ import annotations

from django.db import transaction
from django.shortcuts import render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext_lazy

from accounts.models import Profile
from accounts.selectors import forget_preferences, preferences
from core.errors import Conflict, Forbidden

#: The mark beside a bot account's name, on every page and in every email.
BOT_MARK = pgettext_lazy("bot account mark", "BOT")

#: Where a signed-in bot account may still send a form: its account
#: (allauth: log out, password, email), its profile (its API tokens among
#: it) and the language menu. The API authenticates by token, not session.
WRITABLE_PREFIXES = ("/accounts/", "/profile/", "/i18n/", "/api/")

SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


def is_bot_account(user) -> bool:
    """Whether ``user`` is a bot account: from its profile when it was loaded
    with it, else from the cached preferences (``accounts.selectors``), so
    that naming a player never costs a query of its own."""
    if user is None or not getattr(user, "pk", None):
        return False
    profile = user._state.fields_cache.get("profile")
    if profile is not None:
        return profile.is_bot_account
    return bool(preferences(user).get("bot", False))


def conversion_refusal(user) -> str | None:
    """Why ``user`` may not become a bot account now (None: it may).

    Only an account that never took part in anything a human pool holds: no
    seat in any match (played, joined or waiting), no match created, and no
    entry in a tournament, a season, a ladder or the quick-match queue. A
    rating earned as a human never turns into a bot's."""
    if is_bot_account(user):
        return _("This account is a bot account already.")
    if user.seats.exists() or user.created_matches.exists():
        return _(
            "Only a new account can become a bot account: this one has played or joined a match."
        )
    if (
        user.tournament_entries.exists()
        or user.season_entries.exists()
        or user.ladder_entries.exists()
        or user.quick_requests.exists()
    ):
        return _(
            "Only a new account can become a bot account: this one has entered a tournament, "
            "a season, a ladder or a quick match."
        )
    return None


def become_bot(user) -> Profile:
    """Turn ``user`` into a bot account, for good. Refused (nothing changed)
    with the reason ``conversion_refusal`` gives; checked again under the
    profile's lock, so a match joined meanwhile still refuses."""
    with transaction.atomic():
        profile = Profile.objects.select_for_update().get(user_id=user.pk)
        user.profile = profile
        refusal = conversion_refusal(user)
        if refusal:
            raise Conflict(refusal)
        profile.is_bot_account = True
        profile.bot_since = timezone.now()
        profile.save(update_fields=["is_bot_account", "bot_since"])
        user.ratings.update(bot=True)
    forget_preferences(user.pk)
    return profile


#: The API's scopes that act for the token's owner (docs/api.md): with a bot
#: account's token each needs ``bot:play`` too.
ACTING_SCOPES = frozenset({"match:play", "challenge:write", "tournament:write"})


def acting(scopes) -> bool:
    """Whether an endpoint that needs one of ``scopes`` acts (not only reads)."""
    return any(scope in ACTING_SCOPES for scope in scopes)


def usable_scopes(user, scopes) -> set[str]:
    """The scopes of ``user``'s token that count: a bot account acts only
    with ``bot:play`` (its ``match:play`` is not enough, so that every move of
    a bot account is made by a token made for a bot), and a person never
    uses ``bot:play``. Without ``bot:play`` a bot account's token only
    reads; with it, it also acts where it holds the endpoint's own scope
    (``challenge:write`` to accept a challenge, ``tournament:write`` to enter)."""
    held = set(scopes)
    if is_bot_account(user):
        held.discard("match:play")
        if "bot:play" not in held:
            held -= ACTING_SCOPES
    else:
        held.discard("bot:play")
    return held


def require_human(user, message: str) -> None:
    """Refuse (403) a bot account where only humans go: the quick-match
    queue and the seasons (``message`` says which)."""
    if is_bot_account(user):
        raise Forbidden(message)


class BotReadOnlyMiddleware:
    """A bot account's site pages are read-only: every form it sends outside
    its account and profile is refused (403) with a page that says it plays
    through the API, and nothing changes."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in SAFE_METHODS and not request.path_info.startswith(
            WRITABLE_PREFIXES
        ):
            user = getattr(request, "user", None)
            if user is not None and user.is_authenticated and is_bot_account(user):
                return render(
                    request,
                    "accounts/bot_read_only.html",
                    {
                        "message": _(
                            "A bot account plays through the API only: its pages are read-only."
                        )
                    },
                    status=403,
                )
        return self.get_response(request)

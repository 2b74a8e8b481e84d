"""A fuzzer over every form and POST endpoint (Hypothesis).

Each example sends generated and mutated fields (NUL bytes, other digits,
huge numbers, line breaks, markup, wrong types, missing and repeated fields,
other players' names, tokens and the ids of other matches' rows), in a
multipart, urlencoded or JSON body, to one endpoint, as a seated player, a
spectator, a logged-in stranger, an anonymous visitor, a moderator or staff
outside the moderators, about a match in play, a private match gathering
players, a finished match, another private match, or no match at all. It
asserts what the site promises: never a 5xx, and when the answer is a
refusal nothing in the database changed and no email went out.

The table ``ENDPOINTS`` names every POST endpoint of the URL conf;
``test_every_post_endpoint_is_fuzzed`` walks the URL conf and fails when a
view that accepts POST is neither in the table nor listed, with its reason,
as not Smoki's to fuzz. ``GET_ENDPOINTS`` adds, with a third of the
examples, the pages whose query or address carries what a person types or
forges (tokens, filters, "since"), among them the two GETs that change
something: the bell marks notifications read, an invitation link opens a
private match.

SMOKI_FUZZ_EXAMPLES sets the examples per endpoint (see DEFAULT_EXAMPLES for
the default and what it costs); Hypothesis runs derandomized, so CI sees
the same examples every run, and a failure prints the request that broke.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass
from datetime import timedelta
from functools import cache as once
from io import BytesIO
from urllib.parse import urlencode

import pytest
from django.apps import apps
from django.conf import settings
from django.contrib.auth.models import Group
from django.core import mail
from django.core.cache import cache
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.template.base import Template
from django.test import Client
from django.urls import URLPattern, URLResolver, get_resolver, reverse
from django.utils import timezone
from hypothesis import HealthCheck, given
from hypothesis import settings as hypothesis_settings
from hypothesis import strategies as st
from hypothesis.extra.django import TestCase
from PIL import Image

from games.correspondence import compose, move_links
from games.engine import registry
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import (
    DeliveryStatus,
    Notification,
    NotificationKind,
    ReplayComment,
    Visibility,
)
from games.play import chat, safety
from ladders import services as ladders
from ladders.models import Entry
from matchmaking import services as quick_match
from seasons import services as season_services
from seasons.models import Season
from tests.api.test_api_fuzz import FUZZED as API_FUZZED
from tests.api.test_api_fuzz import drain, streams_end_at_once
from tournaments import chat as tournament_chat
from tournaments import services as tournament_services
from tournaments.models import Entrant

# An example costs 7 ms (a refused admin or allauth form) to 40 ms (the
# profile page) of CPU; 300 per endpoint take the whole file about 3 minutes
# on one core, 1.5 to 4 minutes of the suite's wall clock on two workers
# (docs/performance.md, "The fuzzer").
DEFAULT_EXAMPLES = 300
EXAMPLES = int(os.environ.get("SMOKI_FUZZ_EXAMPLES", str(DEFAULT_EXAMPLES)))

# Placeholders replaced, per example, by the real thing of the fixture.
TRICKY = [
    "",
    " ",
    "0",
    "1",
    "2",
    "-1",
    "²",
    "٣",
    "1²",
    "١٢",
    "9" * 30,
    str(2**63),
    str(2**64 + 1),
    "1e9",
    "1.5",
    "\x00",
    "a\x00b",
    "a\nb",
    "\r\n",
    "\u2028",
    "\ufeff",
    "null",
    "true",
    "{}",
    "[]",
    '{"type": "roll"}',
    '{"type": "pass"}',
    "[1, 2]",
    '{"type": "x", "x": "\\u0000"}',
    "alice",
    "bob",
    "ALICE",
    "ａｌｉｃｅ",
    "nobody",
    "Eve (bot)",
    "<script>alert(1)</script>",
    "x" * 600,
    "nogi",
    "private",
    "public",
    "heuristic",
    "strong",
    "random",
    "Strong",
    "expert",
    "never",
    "immediate",
    "friends",
    "UTC",
    "Europe/Warsaw",
    "on",
    "ask",
    "agree",
    "refuse",
    "notifications",
    "1,2",
    "<invite-token>",
    "<other-invite-token>",
    "<message-id>",
    "<other-message-id>",
    "<other-match-id>",
    "<version>",
    "<legal-action>",
    "<user-id>",
    "<email>",
]

value = st.one_of(
    st.sampled_from(TRICKY),
    st.text(max_size=40),
    st.integers(min_value=-(2**70), max_value=2**70).map(str),
)
# A field may come once, twice (the view reads one of them) or not at all.
field_value = st.one_of(value, value, value, st.lists(value, min_size=2, max_size=3))
STRAY = ["x", "token", "version", "csrfmiddlewaretoken", "\x00", "next", "id"]


# Files for the fields that take an upload (a player's picture), swapped in
# per example like the placeholders below; in a body that is not multipart
# the placeholder stays a plain string.
UPLOADS = ["<png>", "<jpeg-with-exif>", "<gif>", "<bomb>", "<not-an-image>", "<cut-png>", "<svg>"]
upload_value = st.one_of(st.sampled_from(UPLOADS), st.sampled_from(UPLOADS), value)


def _image(fmt: str, size=(40, 30), mode="RGB", **extra) -> bytes:
    out = BytesIO()
    Image.new(mode, size, "red" if mode != "1" else 0).save(out, fmt, **extra)
    return out.getvalue()


@once
def upload_bytes() -> dict[str, tuple[str, bytes]]:
    exif = Image.Exif()
    exif[0x010F] = "Camera"
    png = _image("PNG")
    return {
        "<png>": ("a.png", png),
        "<jpeg-with-exif>": ("b.jpg", _image("JPEG", exif=exif.tobytes())),
        "<gif>": ("c.gif", _image("GIF", mode="P")),
        # 30 million one-bit pixels in a few kilobytes.
        "<bomb>": ("d.png", _image("PNG", size=(6000, 5000), mode="1")),
        "<not-an-image>": ("e.png", b"plain text, not a picture"),
        "<cut-png>": ("f.png", png[: len(png) // 2]),
        "<svg>": ("g.svg", b"<svg xmlns='http://www.w3.org/2000/svg'><script/></svg>"),
    }


def form(fields, files=()):
    known = st.fixed_dictionaries(
        {}, optional={name: upload_value if name in files else field_value for name in fields}
    )
    stray = st.dictionaries(st.sampled_from(STRAY), value, max_size=1)
    return st.tuples(known, stray).map(lambda pair: {**pair[1], **pair[0]})


# -- The table of endpoints -------------------------------------------------------------

MATCH_ROLES = ("seat", "opponent", "spectator", "stranger", "anonymous")
SITE_ROLES = ("seat", "stranger", "anonymous", "moderator")
ADMIN_ROLES = ("moderator", "staff", "seat", "anonymous")
# Allauth re-shows an invalid form with 200: that, too, is a refusal.
FORM_REFUSALS = frozenset({200})


@dataclass(frozen=True)
class Endpoint:
    fields: tuple[str, ...] = ()
    args: str = "none"  # how to fill the URL: see FuzzEveryForm.url_for
    roles: tuple[str, ...] = SITE_ROLES
    also_refusals: frozenset = frozenset()
    method: str = "post"
    files: tuple[str, ...] = ()  # the fields that may carry a file (multipart)


PROFILE_FIELDS = (
    "display_name",
    "language",
    "timezone",
    "invitations_from",
    "confirm_moves",
    "theme",
    "show_presence",
    "auto_vacation",
    "weekend_days",
)
NOTIFICATION_FIELDS = (
    "email_your_turn",
    "email_reminder",
    "email_match_events",
    "email_invitation",
    "email_tournaments",
    "email_follows",
    "email_mentions",
    "push_events",
    "webhook_events",
    "tell_follows",
    "reminder_shares",
    "reminder_hours",
    "quiet_from",
    "quiet_until",
)
MODERATION = ("reason", "confirm", "hours", "seat", "ranks", "count")

ENDPOINTS: dict[str, Endpoint] = {
    # The lobby and the profile.
    "match_create": Endpoint(
        (
            "game",
            "n_seats",
            "visibility",
            "time_per_move",
            "time_bank",
            "time_bank_increment",
            "timeout_policy",
            "takeover_level",
            "vacation_allowed",
            "weekend_pause",
            "opt_nogi_first_player",
            "rated",
            "min_rating",
            "max_rating",
            "min_reliability",
            "invite",
        )
    ),
    "profile": Endpoint(PROFILE_FIELDS),
    "notification_settings": Endpoint(NOTIFICATION_FIELDS),
    # The identity on the player page: a multipart form with a picture.
    "profile_identity": Endpoint(
        ("picture_file", "remove_picture", "country", "bio"), files=("picture_file",)
    ),
    "vacation": Endpoint(("days", "end")),
    # The API tokens page (api/views.py): a revoked pk that is no token of theirs is a 404.
    "api_token_create": Endpoint(("name", "scopes", "days")),
    "api_token_revoke": Endpoint((), args="user"),
    # Turning the account into a bot account (accounts.bots): refused to a
    # player with matches, or without the box ticked.
    "become_bot": Endpoint(("confirm",)),
    # An authorized app revoked (api.oauth.revoke_app): a pk no app of theirs is a 404.
    "api_app_revoke": Endpoint((), args="user"),
    # OAuth2 (api/oauth_urls.py, django-oauth-toolkit): the consent form posted
    # back forged, and the token, revocation and introspection endpoints with
    # junk codes, verifiers, clients and tokens. A refusal is the toolkit's
    # JSON (400, 401) or a redirect to the login or the app.
    "oauth2_provider:authorize": Endpoint(
        (
            "client_id",
            "redirect_uri",
            "scope",
            "state",
            "response_type",
            "code_challenge",
            "code_challenge_method",
            "allow",
        )
    ),
    "oauth2_provider:token": Endpoint(
        ("grant_type", "code", "redirect_uri", "client_id", "code_verifier", "refresh_token")
    ),
    "oauth2_provider:revoke-token": Endpoint(("token", "token_type_hint", "client_id")),
    "oauth2_provider:introspect": Endpoint(("token",)),
    # Push notifications per device and webhooks: a forged subscription, device,
    # webhook, address or kind.
    "push_devices": Endpoint(
        ("action", "endpoint", "p256dh", "auth", "device", "kinds", "kind", "url", "webhook")
    ),
    "set_language": Endpoint(("language", "next")),
    "unsubscribe": Endpoint((), args="unsubscribe"),
    # "Play a bot now" on the lobby and each How to play page.
    "match_play_bot": Endpoint(("level",), "game", MATCH_ROLES),
    # A match: play, seats, invitations, safety, notes, chat and reports.
    "match_act": Endpoint(("action", "version"), "match", MATCH_ROLES),
    "match_join": Endpoint(("token",), "match", MATCH_ROLES),
    "match_leave": Endpoint((), "match", MATCH_ROLES),
    "match_invite": Endpoint(("username",), "match", MATCH_ROLES),
    "match_decline": Endpoint(("next",), "match", MATCH_ROLES),
    "match_fill_bots": Endpoint(("level",), "match", MATCH_ROLES),
    "match_resign": Endpoint((), "match", MATCH_ROLES),
    # "Let's play live now": the other seated players are told (limited).
    "match_offer_live": Endpoint(("token",), "match", MATCH_ROLES),
    "match_undo": Endpoint(("answer",), "match", MATCH_ROLES),
    "match_hint": Endpoint(("version",), "match", MATCH_ROLES),
    "match_review": Endpoint(("token",), "match", MATCH_ROLES),
    "match_replay_review": Endpoint(("step", "token"), "match", MATCH_ROLES),
    "match_notes": Endpoint(("text",), "match", MATCH_ROLES),
    "match_rematch": Endpoint((), "match", MATCH_ROLES),
    "match_chat": Endpoint(("text",), "match", MATCH_ROLES),
    "match_report": Endpoint(("reason", "message", "player"), "match", MATCH_ROLES),
    # Comments on a finished match's replay, and its players opening them to anyone.
    "match_replay_comment": Endpoint(("text", "step", "token"), "match", MATCH_ROLES),
    "match_replay_comments_public": Endpoint(("allow", "step", "token"), "match", MATCH_ROLES),
    # A move from the "your turn" email: a signed link, opened logged out.
    "email_move": Endpoint((), "email_move", MATCH_ROLES),
    # Players: blocking another player from their page.
    "player_block": Endpoint(("do",), "player", MATCH_ROLES),
    # Friends: following another player from their page or the friends page.
    "player_follow": Endpoint(("do", "next"), "player", MATCH_ROLES),
    # Ladders: joining, leaving, challenging, answering a challenge.
    "ladder_join": Endpoint((), "game", MATCH_ROLES),
    "ladder_leave": Endpoint((), "game", MATCH_ROLES),
    "ladder_challenge": Endpoint(("opponent",), "game", MATCH_ROLES),
    "ladder_accept": Endpoint((), "challenge", MATCH_ROLES),
    "ladder_decline": Endpoint((), "challenge", MATCH_ROLES),
    # Accounts (allauth): the forms the site links to.
    "account_login": Endpoint(("login", "password", "remember"), also_refusals=FORM_REFUSALS),
    "account_signup": Endpoint(
        ("email", "username", "password1", "password2"), also_refusals=FORM_REFUSALS
    ),
    "account_logout": Endpoint(),
    "account_reset_password": Endpoint(("email",), also_refusals=FORM_REFUSALS),
    "account_change_password": Endpoint(
        ("oldpassword", "password1", "password2"), also_refusals=FORM_REFUSALS
    ),
    "account_email": Endpoint(
        ("email", "action_add", "action_primary", "action_send", "action_remove"),
        also_refusals=FORM_REFUSALS,
    ),
    # The moderators' desk.
    "admin:games_match_moderate": Endpoint(MODERATION, "moderate", ADMIN_ROLES),
    "admin:games_chatmessage_hide": Endpoint(("reason", "confirm"), "chat_message", ADMIN_ROLES),
    "admin:games_replaycomment_hide": Endpoint(
        ("reason", "confirm"), "replay_comment", ADMIN_ROLES
    ),
    "admin:games_report_resolve": Endpoint(("resolution", "confirm"), "report", ADMIN_ROLES),
    "admin:games_deactivate_user": Endpoint(("reason", "confirm"), "user", ADMIN_ROLES),
    "admin:games_notification_resend": Endpoint(("reason", "confirm"), "resend", ADMIN_ROLES),
    "admin:games_notification_changelist": Endpoint(
        ("action", "_selected_action", "select_across", "index"), roles=ADMIN_ROLES
    ),
    "admin:ladders_entry_remove": Endpoint(("reason", "confirm"), "ladder_entry", ADMIN_ROLES),
    "admin:players_remove_picture": Endpoint(("reason", "confirm"), "user", ADMIN_ROLES),
    "admin:players_remove_bio": Endpoint(("reason", "confirm"), "user", ADMIN_ROLES),
    "admin:ladders_challenge_cancel": Endpoint(
        ("reason", "confirm"), "ladder_challenge", ADMIN_ROLES
    ),
    "admin:login": Endpoint(("username", "password", "next"), roles=ADMIN_ROLES),
    # Quick match: a request (game, counts, clocks, window, options), a withdrawal.
    "quick_match": Endpoint(
        (
            "game",
            "counts",
            "clock_min",
            "clock_max",
            "rated",
            "window",
            "opt_nogi_first_player",
            "opt_drakon_team_play",
            "bots_after",
        )
    ),
    "quick_match_withdraw": Endpoint(("next",), "quick_request", MATCH_ROLES),
    # Tournaments: a new one, entering, leaving and withdrawing, and the desk.
    "tournament_create": Endpoint(
        (
            "name",
            "game",
            "n_seats",
            "format",
            "rounds",
            "starts_at",
            "start_when_full",
            "min_entrants",
            "max_entrants",
            "time_per_move",
            "time_bank",
            "timeout_policy",
            "vacation_allowed",
            "weekend_pause",
            "opt_nogi_first_player",
            "rated",
            "min_reliability",
            "bots_allowed",
        )
    ),
    "tournament_action": Endpoint((), "tournament", MATCH_ROLES),
    "tournament_chat": Endpoint(("text",), "tournament_page", MATCH_ROLES),
    # The organiser's webhooks on a tournament: a forged action, kind, address or hook.
    "tournament_webhooks": Endpoint(
        ("action", "kind", "url", "webhook"), "tournament_page", MATCH_ROLES
    ),
    # Seasons: signing up and leaving.
    "season_action": Endpoint((), "season", MATCH_ROLES),
    "admin:tournaments_tournamentmessage_hide": Endpoint(
        ("reason", "confirm"), "tournament_message_admin", ADMIN_ROLES
    ),
    "admin:tournaments_tournament_cancel": Endpoint(
        ("reason", "confirm"), "tournament_admin", ADMIN_ROLES
    ),
    "admin:seasons_season_cancel": Endpoint(("reason", "confirm"), "season_admin", ADMIN_ROLES),
    "admin:tournaments_entrant_remove": Endpoint(
        ("reason", "confirm"), "entrant_admin", ADMIN_ROLES
    ),
    # The rest of the desk's pages for Smoki's models: read-only, so every
    # POST (add, change, delete, a list's action) must be refused.
    "admin:read_only_pages": Endpoint(
        ("action", "_selected_action", "reason", "status", "text", "_save", "post"),
        "admin_page",
        ADMIN_ROLES,
    ),
}

# Pages read with GET whose input (query, token in the address) a person
# types or forges, and the two GETs that change something: the bell marks
# notifications read, an invitation link grants a look at a private match.
# Fewer examples: no form, and the site's answers are pages already tested.
GET_ENDPOINTS: dict[str, Endpoint] = {
    "api_tokens": Endpoint((), method="get"),
    "notifications": Endpoint(("page", "x"), roles=MATCH_ROLES, method="get"),
    "notifications_sent": Endpoint(("page", "x"), roles=MATCH_ROLES, method="get"),
    "invitation_link": Endpoint((), "invite", MATCH_ROLES, method="get"),
    "match_detail": Endpoint(("token", "path"), "match", MATCH_ROLES, method="get"),
    "match_panel": Endpoint(("token", "path", "since"), "match", MATCH_ROLES, method="get"),
    # The live stream: answered (404, 204 or the stream's head) without reading its body.
    "match_events": Endpoint(("token",), "match", MATCH_ROLES, method="get"),
    "match_log": Endpoint(("token",), "match", MATCH_ROLES, method="get"),
    "match_verify": Endpoint(("token",), "match", MATCH_ROLES, method="get"),
    "match_log_json": Endpoint(("token",), "match", MATCH_ROLES, method="get"),
    # The board's thumbnail: a forged version or token is never an error.
    "match_thumbnail": Endpoint(("token", "v"), "match", MATCH_ROLES, method="get"),
    "match_replay": Endpoint(("token", "at", "as"), "match", MATCH_ROLES, method="get"),
    "match_print": Endpoint(("token",), "match", MATCH_ROLES, method="get"),
    "match_archive": Endpoint(
        ("game", "player", "since", "until", "page"), roles=MATCH_ROLES, method="get"
    ),
    "lobby": Endpoint(("game", "page"), method="get"),
    # The new-match form, and a player page's "Challenge" (``?invite=``).
    "match_create": Endpoint(("game", "invite"), method="get"),
    "email_move": Endpoint((), "email_move", MATCH_ROLES, method="get"),
    "player_page": Endpoint(("page",), "player", MATCH_ROLES, method="get"),
    "friends": Endpoint(("page",), roles=MATCH_ROLES, method="get"),
    "leaderboard": Endpoint(("page",), "game", MATCH_ROLES, method="get"),
    "leaderboards": Endpoint(("page",), roles=MATCH_ROLES, method="get"),
    "ladder_list": Endpoint(("page",), roles=MATCH_ROLES, method="get"),
    "ladder_detail": Endpoint(("page",), "game", MATCH_ROLES, method="get"),
    "tournament_list": Endpoint(("page",), roles=MATCH_ROLES, method="get"),
    "tournament_detail": Endpoint(("page",), "tournament_page", MATCH_ROLES, method="get"),
    "season_list": Endpoint(("page",), roles=MATCH_ROLES, method="get"),
    "season_detail": Endpoint(("page",), "season_page", MATCH_ROLES, method="get"),
    "quick_match": Endpoint(("game",), roles=MATCH_ROLES, method="get"),
    "admin:games_match_changelist": Endpoint(
        ("stale", "waiting", "reported", "status__exact", "q", "o", "p"),
        roles=ADMIN_ROLES,
        method="get",
    ),
}
GET_EXAMPLES = max(1, EXAMPLES // 3)

# The API's event stream, read with a token (not a session) and long-lived:
# fuzzed by ``test_the_event_stream_is_fuzzed`` below, outside the class (its
# reads run in a worker thread, so its rows are committed), each example's
# stream ending after its first keep-alive (``SMOKI_STREAM_SECONDS`` 0).
# ``since`` and ``Last-Event-ID`` are where to resume; ``after`` is no
# parameter of the stream's. Targets: whose token, and which kind.
TOKEN_ENDPOINTS: dict[str, Endpoint] = {
    "api_stream": Endpoint(("since", "after", "Last-Event-ID"), "stream_token", method="get"),
}
STREAM_TOKENS = (
    "reader",
    "challenges",
    "no scope",
    "revoked",
    "expired",
    "bot",
    "garbage",
    "none",
    "session only",
)
STREAM_EXAMPLES = max(1, EXAMPLES // 6)

# Admin pages covered by "admin:read_only_pages": every page Django's admin
# makes for a model of Smoki's, but those with their own entry above.
SMOKI_APPS = (
    "games",
    "accounts",
    "players",
    "ladders",
    "tournaments",
    "seasons",
    "matchmaking",
)
ADMIN_PAGE_KINDS = ("changelist", "add", "change", "delete", "history")

# Views that accept POST but are not Smoki's to fuzz, each with why.
NOT_FUZZED = {
    "account_reauthenticate": "allauth's own; the site never asks to reauthenticate",
    "account_set_password": "allauth's own; every account is made with a password",
    "account_confirm_login_code": "allauth's own; login by code is off",
    "account_confirm_email": "allauth's key check; its token is tested in tests/accounts",
    "account_reset_password_from_key": "allauth's key check; tested in tests/accounts",
    "admin:password_change": "Django's own admin form; moderators change passwords on the site",
    "admin:logout": "Django's own admin logout",
    "admin:autocomplete": "no admin of Smoki's uses autocomplete fields",
    "admin:auth_user_password_change": "superusers only; not part of the moderators' desk",
    "admin:<django and allauth models>": (
        "users, groups, sites, email addresses, OAuth apps and tokens: superusers only"
    ),
    "admin:index": "no form: POST shows the page as GET does",
    "admin:app_list": "no form: POST shows the page as GET does",
    "admin:jsi18n": "no form: the admin's JavaScript catalogue",
    "admin:view_on_site": "no form: a redirect to the object's page",
    "admin:password_change_done": "no form: a confirmation page",
    "admin:players_suspicious_pairs": "no form: POST shows the list as GET does",
    "account_email_verification_sent": "no form: a confirmation page",
}


def admin_page_names() -> list[str]:
    names = []
    for label in SMOKI_APPS:
        for model in apps.get_app_config(label).get_models():
            for kind in ADMIN_PAGE_KINDS:
                name = f"admin:{label}_{model._meta.model_name}_{kind}"
                if name not in ENDPOINTS and _resolves(name):
                    names.append(name)
    return names


def _resolves(name: str) -> bool:
    return any(pattern[0] == name for pattern in _all_patterns())


# -- What counts as a change -------------------------------------------------------------


def _tables() -> list[str]:
    tables = [
        model._meta.db_table
        for label in SMOKI_APPS
        for model in apps.get_app_config(label).get_models(include_auto_created=True)
    ]
    tables += ["auth_user", "auth_user_groups", "account_emailaddress", "django_admin_log"]
    return sorted(tables)


def snapshot() -> list:
    """Every row of the tables that matter: matches (version, state, seats),
    moves, chat, notifications, notes, invitations, reports, the audit,
    profiles, ratings and blocks, users and their email addresses. Raw SQL:
    an ORM query per table would double the cost of each example."""
    rows = []
    with connection.cursor() as cursor:
        for table in TABLES:
            cursor.execute(f'SELECT * FROM "{table}" ORDER BY 1')  # noqa: S608
            rows.append((table, cursor.fetchall()))
    return rows


TABLES: list[str] = []


def _plain_render(self, context):
    return self.nodelist.render(context)


class FuzzEveryForm(TestCase):
    """One Hypothesis test per entry of ENDPOINTS (added below the class)."""

    @classmethod
    def setUpClass(cls):
        super().setUpClass()
        TABLES[:] = _tables()
        # The test client copies every template context so a test can read
        # response.context; the fuzzer never does, and the copies are a third
        # of each example's time.
        cls._render = Template._render
        Template._render = _plain_render

    @classmethod
    def tearDownClass(cls):
        Template._render = cls._render
        super().tearDownClass()

    @classmethod
    def setUpTestData(cls):
        User = apps.get_model("auth", "User")

        def make(name, **extra):
            # No password: hashing one costs a second and force_login needs none.
            return User.objects.create_user(name, f"{name}@example.com", None, **extra)

        cls.alice, cls.bob, cls.dave, cls.carol = (
            make(n) for n in ("alice", "bob", "dave", "carol")
        )
        cls.erin = make("erin")
        cls.mod = make("mod", is_staff=True)
        cls.mod.groups.add(Group.objects.get(name="moderator"))
        cls.staff = make("staff", is_staff=True)
        for user in (cls.alice, cls.bob, cls.dave, cls.carol, cls.mod):
            user.emailaddress_set.create(email=user.email, primary=True, verified=True)
        # Something for the desk to remove from bob's player page.
        bob_profile = cls.bob.profile
        bob_profile.bio = "Hello"
        bob_profile.picture = "pictures/bob.webp"
        bob_profile.save(update_fields=["bio", "picture"])

        # A public match in play (alice and bob), a private one gathering
        # players (alice's, dave invited), one finished, and a private match
        # of others (carol and erin) whose ids and token are forged.
        cls.active = lobby.create_match(user=cls.alice, game_key="nogi", n_seats=2)
        lobby.join_match(user=cls.bob, match=cls.active)
        cls.active.refresh_from_db()
        cls.message = chat.post_message(cls.bob, cls.active, "hello")
        cls.report = chat.report(cls.alice, cls.active, "rude words", message_id=cls.message.pk)
        cls.gathering = lobby.create_match(
            user=cls.alice, game_key="nogi", n_seats=3, visibility=Visibility.PRIVATE
        )
        invitations.invite_user(user=cls.alice, match=cls.gathering, username="dave")
        cls.finished = lobby.create_match(user=cls.alice, game_key="nogi", n_seats=2)
        lobby.join_match(user=cls.bob, match=cls.finished)
        safety.resign(user=cls.bob, match=cls.finished)
        cls.other = lobby.create_match(
            user=cls.carol, game_key="nogi", n_seats=2, visibility=Visibility.PRIVATE
        )
        lobby.join_match(user=cls.erin, match=cls.other, token=cls.other.invite_token)
        cls.other.refresh_from_db()
        cls.other_message = chat.post_message(cls.erin, cls.other, "secret plans")
        # A replay comment to hide (written straight: the finished match here ended early).
        cls.replay_comment = ReplayComment.objects.create(
            match=cls.finished, step=0, user=cls.alice, text="well played"
        )
        cls.failed = Notification.objects.create(
            user=cls.bob,
            match=cls.active,
            kind=NotificationKind.YOUR_TURN,
            version=0,
            tag="bounced",
            status=DeliveryStatus.FAILED,
            last_error="550 mailbox full",
            read_at=timezone.now(),  # history: bob's unread "your turn" is the game's own
        )
        # The Drako ladder: alice, bob, erin, carol, dave after erin's won
        # challenge; carol has challenged alice ("seat"), dave bob.
        for user in (cls.alice, cls.bob, cls.carol, cls.dave, cls.erin):
            ladders.join(user, "drako")
        cls.challenge_done = ladders.challenge(cls.erin, "drako", "carol")
        ladders.decline(cls.carol, cls.challenge_done.pk)
        cls.challenge_mine = ladders.challenge(cls.carol, "drako", "alice")
        cls.challenge_others = ladders.challenge(cls.dave, "drako", "bob")
        cls.ladder_entry = Entry.objects.get(user=cls.erin)

        # A tournament open for entry (alice's) and one running (carol and erin).
        start = timezone.now() + timedelta(days=1)
        cls.open_tournament = tournament_services.create_tournament(
            user=cls.alice,
            name="Open cup",
            game_key="nogi",
            table_size=2,
            format="swiss",
            rounds=3,
            starts_at=start,
            min_entrants=2,
            max_entrants=8,
        )
        cls.running_tournament = tournament_services.create_tournament(
            user=cls.carol,
            name="Running cup",
            game_key="nogi",
            table_size=2,
            format="round_robin",
            starts_at=start,
            min_entrants=2,
            max_entrants=8,
        )
        tournament_services.join(user=cls.erin, tournament=cls.running_tournament)
        tournament_services.start(cls.running_tournament.pk, now=start)
        cls.tournament_message = tournament_chat.post_message(
            cls.erin, cls.running_tournament, "good luck"
        )
        # A season open for sign-up (bob signed up) and one running (alice,
        # carol, dave, erin in one division).
        cls.signup_season = Season.objects.create(
            game_key="nogi",
            year=2090,
            quarter=1,
            signup_opens_at=timezone.now() - timedelta(days=1),
            starts_at=timezone.now() + timedelta(days=20),
        )
        season_services.sign_up(user=cls.bob, season=cls.signup_season)
        cls.running_season = Season.objects.create(
            game_key="drako",
            year=2090,
            quarter=1,
            signup_opens_at=timezone.now() - timedelta(days=1),
            starts_at=timezone.now() + timedelta(days=20),
        )
        for user in (cls.alice, cls.carol, cls.dave, cls.erin):
            season_services.sign_up(user=user, season=cls.running_season)
        season_services.start(cls.running_season.pk, now=cls.running_season.starts_at)
        starts = cls.running_season.starts_at
        for pk in season_services.waiting_divisions(starts, grace=timedelta(0)):
            season_services.start_division(pk, starts)
        # Quick match: alice's request waits ("seat"), carol's too, and one
        # of alice's was withdrawn.
        day = timedelta(days=1)
        ask = {"counts": [2, 3], "clock_min": day, "clock_max": 7 * day}
        cls.quick_done = quick_match.request(cls.alice, game_key="drakon", **ask)
        quick_match.withdraw(cls.alice, cls.quick_done.pk)
        cls.quick_mine = quick_match.request(cls.alice, game_key="nogi", **ask)
        cls.quick_others = quick_match.request(cls.carol, game_key="", **ask)
        game = registry.get("nogi")
        seat = cls.active.seats.get(user=cls.alice).index
        legal = game.legal_actions(cls.active.state, seat) or game.legal_actions(
            cls.active.state, 1 - seat
        )
        cls.legal_action = json.dumps(legal[0]) if legal else "{}"

        cls.sessions = {}
        for role, user in (
            ("seat", cls.alice),
            ("opponent", cls.bob),
            ("spectator", cls.dave),
            ("stranger", cls.carol),
            ("moderator", cls.mod),
            ("staff", cls.staff),
        ):
            client = Client()
            client.force_login(user)
            cls.sessions[role] = client.cookies[settings.SESSION_COOKIE_NAME].value

    def client_as(self, role: str) -> Client:
        client = Client()
        if role in self.sessions:
            client.cookies[settings.SESSION_COOKIE_NAME] = self.sessions[role]
        return client

    def placeholders(self) -> dict[str, str]:
        return {
            "<invite-token>": self.gathering.invite_token,
            "<other-invite-token>": self.other.invite_token,
            "<message-id>": str(self.message.pk),
            "<other-message-id>": str(self.other_message.pk),
            "<other-match-id>": str(self.other.pk),
            "<version>": str(self.active.version),
            "<legal-action>": self.legal_action,
            "<user-id>": str(self.bob.pk),
            "<email>": "bob@example.com",
        }

    def fill(self, data: dict, files: bool = False) -> dict:
        """The example with its placeholders made real: ids and tokens, and,
        when ``files`` (a multipart body), the uploads."""
        real = self.placeholders()
        uploads = upload_bytes() if files else {}

        def swap(v):
            if isinstance(v, str) and v in uploads:
                return SimpleUploadedFile(*uploads[v])  # a fresh file each time it is sent
            return real.get(v, v)

        return {
            k: [swap(x) for x in v] if isinstance(v, list) else swap(v) for k, v in data.items()
        }

    def url_for(self, name: str, args: str, target) -> str:
        """The address to post to; ``target`` is drawn by the test from ``TARGETS[args]``."""
        match_pk = {
            "active": self.active.pk,
            "gathering": self.gathering.pk,
            "finished": self.finished.pk,
            "other": self.other.pk,
            "missing": 10**6,
            "huge": 2**63,
        }
        if args == "none":
            return reverse(name)
        if args == "match":
            return reverse(name, args=[match_pk[target]])
        if args == "unsubscribe":
            good = compose.unsubscribe_token(self.alice, "email_your_turn")
            token = {
                "good": good,
                "all": compose.unsubscribe_token(self.bob, "all"),
                "forged": good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB"),
                "nul": good + "\x00",
                "garbage": "²٣-x",
                "other field": compose.unsubscribe_token(self.alice, "is_staff"),
            }[target]
            return reverse(name, args=[token])
        if args == "moderate":
            which, op = target
            return reverse(name, args=[match_pk[which], op])
        if args == "chat_message":
            pk = {"here": self.message.pk, "other": self.other_message.pk, "missing": 10**6}[target]
            return reverse(name, args=[pk])
        if args == "replay_comment":
            return reverse(name, args=[{"here": self.replay_comment.pk, "missing": 10**6}[target]])
        if args == "report":
            return reverse(name, args=[{"here": self.report.pk, "missing": 10**6}[target]])
        if args == "user":
            user = {"player": self.bob, "moderator": self.mod, "staff": self.staff}.get(target)
            return reverse(name, args=[user.pk if user else 10**6])
        if args == "resend":
            ids = {"failed": str(self.failed.pk), "none": "", "weird": "²,١,9" + "9" * 30}[target]
            return reverse(name) + "?ids=" + ids
        if args == "invite":
            token = {
                "gathering": self.gathering.invite_token,
                "other": self.other.invite_token,
                "nul": self.gathering.invite_token + "\x00",
                "garbage": "²٣",
                "long": "x" * 300,
            }[target]
            return reverse(name, args=[token])
        if args == "email_move":
            seat = self.active.seats.get(user=self.alice).index
            good = move_links.make_token(
                match_id=self.active.pk,
                seat=seat,
                user_id=self.alice.pk,
                version=self.active.version,
                action=json.loads(self.legal_action),
                deadline=self.active.deadline or timezone.now(),
            )
            token = {
                "good": good,
                "forged": good[:-3] + ("AAA" if not good.endswith("AAA") else "BBB"),
                "truncated": good[: len(good) // 2],
                "other match": good,
                "garbage": "²٣-x",
            }[target]
            pk = self.other.pk if target == "other match" else self.active.pk
            return reverse(name, args=[pk, token])
        if args == "player":
            return reverse(name, args=[target])
        if args == "game":
            return reverse(name, args=[target])
        if args == "challenge":
            pk = {
                "mine": self.challenge_mine.pk,
                "others": self.challenge_others.pk,
                "done": self.challenge_done.pk,
                "missing": 10**6,
                "huge": 2**63,
            }[target]
            return reverse(name, args=[pk])
        if args == "ladder_challenge":
            pk = {"open": self.challenge_others.pk, "done": self.challenge_done.pk}.get(target)
            return reverse(name, args=[pk or 10**6])
        if args == "ladder_entry":
            return reverse(name, args=[self.ladder_entry.pk if target == "real" else 10**6])
        if args in ("tournament", "tournament_page", "tournament_admin", "entrant_admin"):
            which, action = target
            pk = {
                "open": self.open_tournament.pk,
                "running": self.running_tournament.pk,
                "missing": 10**6,
                "huge": 2**63,
            }[which]
            if args == "tournament":
                return reverse(name, args=[pk, action])
            if args == "entrant_admin":
                entrant = Entrant.objects.filter(tournament_id=min(pk, 10**6)).first()
                return reverse(name, args=[entrant.pk if entrant else 10**6])
            return reverse(name, args=[pk])
        if args in ("season", "season_page", "season_admin"):
            which, action = target
            pk = {
                "signup": self.signup_season.pk,
                "running": self.running_season.pk,
                "missing": 10**6,
                "huge": 2**63,
            }[which]
            return reverse(name, args=[pk, action] if args == "season" else [pk])
        if args == "tournament_message_admin":
            pk = self.tournament_message.pk if target == "real" else 10**6
            return reverse(name, args=[pk])
        if args == "quick_request":
            pk = {
                "mine": self.quick_mine.pk,
                "others": self.quick_others.pk,
                "done": self.quick_done.pk,
                "missing": 10**6,
                "huge": 2**63,
            }[target]
            return reverse(name, args=[pk])
        if args == "admin_page":
            page, which = target
            if page.endswith(("_changelist", "_add")):
                return reverse(page)
            return reverse(page, args=[{"real": self.active.pk, "missing": "²"}[which]])
        raise AssertionError(args)

    def check(self, endpoint: Endpoint, role: str, url: str, data: dict, htmx: bool, body="form"):
        cache.clear()  # every example starts below every rate limit
        data = self.fill(data, files=body == "form" and endpoint.method == "post")
        before = snapshot()
        sent = len(mail.outbox)
        headers = {"HTTP_HX_REQUEST": "true"} if htmx else {}
        client = self.client_as(role)
        if endpoint.method == "get" or body == "form":
            response = getattr(client, endpoint.method)(url, data, **headers)
        elif body == "urlencoded":
            encoded = urlencode(data, doseq=True)
            response = client.post(url, encoded, "application/x-www-form-urlencoded", **headers)
        else:  # a JSON body, which no form reads: the view sees no fields at all
            response = client.post(url, json.dumps(data), "application/json", **headers)
        assert response.status_code < 500, (role, url, data, response.status_code)
        if response.status_code >= 400 or response.status_code in endpoint.also_refusals:
            assert snapshot() == before, (role, url, data, response.status_code)
            assert len(mail.outbox) == sent, (role, url, data, response.status_code)


MATCHES = ["active", "gathering", "finished", "other", "missing", "huge"]
TARGETS = {
    "none": st.none(),
    "match": st.sampled_from(MATCHES),
    "unsubscribe": st.sampled_from(["good", "all", "forged", "nul", "garbage", "other field"]),
    "moderate": st.tuples(
        st.sampled_from(MATCHES),
        st.sampled_from(
            [
                "abort",
                "extend",
                "force_timeout",
                "replace_with_bot",
                "reinstate",
                "adjudicate",
                "correct_result",
                "undo",
                "nothing",
                "²",
            ]
        ),
    ),
    "chat_message": st.sampled_from(["here", "other", "missing"]),
    "report": st.sampled_from(["here", "missing"]),
    "replay_comment": st.sampled_from(["here", "missing"]),
    "user": st.sampled_from(["player", "moderator", "staff", "missing"]),
    "resend": st.sampled_from(["failed", "none", "weird"]),
    "invite": st.sampled_from(["gathering", "other", "nul", "garbage", "long"]),
    "email_move": st.sampled_from(["good", "forged", "truncated", "other match", "garbage"]),
    "player": st.sampled_from(["alice", "bob", "carol", "mod", "nobody", "²٣", "x" * 200]),
    "game": st.sampled_from(["nogi", "drako", "drakon", "hatchlings", "chess", "x" * 100]),
    "challenge": st.sampled_from(["mine", "others", "done", "missing", "huge"]),
    "ladder_challenge": st.sampled_from(["open", "done", "missing"]),
    "ladder_entry": st.sampled_from(["real", "missing"]),
    "quick_request": st.sampled_from(["mine", "others", "done", "missing", "huge"]),
}
_TOURNAMENTS = st.sampled_from(["open", "running", "missing", "huge"])
_TOURNAMENT_ACTIONS = st.sampled_from(["join", "leave", "withdraw", "explode", "²", "x" * 60])
TARGETS["tournament"] = st.tuples(_TOURNAMENTS, _TOURNAMENT_ACTIONS)
for _kind in ("tournament_page", "tournament_admin", "entrant_admin"):
    TARGETS[_kind] = st.tuples(_TOURNAMENTS, st.none())
TARGETS["tournament_message_admin"] = st.sampled_from(["real", "missing"])
_SEASONS = st.sampled_from(["signup", "running", "missing", "huge"])
TARGETS["season"] = st.tuples(
    _SEASONS, st.sampled_from(["sign-up", "leave", "withdraw", "²", "x" * 60])
)
TARGETS["season_page"] = st.tuples(_SEASONS, st.none())
TARGETS["season_admin"] = st.tuples(_SEASONS, st.none())


def _fuzz_test(name: str, endpoint: Endpoint, examples: int = EXAMPLES):
    if endpoint.args == "admin_page":
        target = st.deferred(
            lambda: st.tuples(
                st.sampled_from(admin_page_names()), st.sampled_from(["real", "missing"])
            )
        )
    else:
        target = TARGETS[endpoint.args]

    @hypothesis_settings(
        max_examples=examples,
        deadline=None,  # a request's time varies with the machine's load; it is not under test
        derandomize=True,  # the same examples on every run and every machine
        database=None,
        # too_slow: each example is a whole request with two snapshots of the
        # database, slower than Hypothesis expects of a data generator.
        # differing_executors: the one test class runs each generated method.
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.differing_executors],
    )
    @given(
        role=st.sampled_from(endpoint.roles),
        target=target,
        data=form(endpoint.fields, endpoint.files),
        htmx=st.booleans(),
        body=st.sampled_from(["form", "form", "urlencoded", "json"]),
    )
    def test(self, role, target, data, htmx, body):
        url_name = name if endpoint.args != "admin_page" else target[0]
        url = self.url_for(url_name, endpoint.args, target)
        self.check(endpoint, role, url, data, htmx, body)

    test.__name__ = f"test_{endpoint.method}_" + name.replace(":", "_")
    return test


for _name, _endpoint in ENDPOINTS.items():
    _test = _fuzz_test(_name, _endpoint)
    setattr(FuzzEveryForm, _test.__name__, _test)
for _name, _endpoint in GET_ENDPOINTS.items():
    _test = _fuzz_test(_name, _endpoint, GET_EXAMPLES)
    setattr(FuzzEveryForm, _test.__name__, _test)


# -- Every POST endpoint is in the table ----------------------------------------------------


def _all_patterns(patterns=None, namespace=None):
    if patterns is None:
        patterns = get_resolver().url_patterns
    found = []
    for pattern in patterns:
        if isinstance(pattern, URLResolver):
            found += _all_patterns(pattern.url_patterns, pattern.namespace or namespace)
        elif isinstance(pattern, URLPattern) and pattern.name:
            name = f"{namespace}:{pattern.name}" if namespace else pattern.name
            found.append((name, pattern.callback))
    return found


def _allowed_methods(view) -> set[str] | None:
    """The methods a view's decorators allow (None: any), read from
    Django's require_http_methods closure or a class-based view."""
    view_class = getattr(view, "view_class", None)
    if view_class is not None:
        return {m.upper() for m in view_class.http_method_names if hasattr(view_class, m)}
    while view is not None:
        for cell in getattr(view, "__closure__", None) or ():
            try:
                content = cell.cell_contents
            except ValueError:
                continue
            if (
                isinstance(content, list | tuple)
                and content
                and set(content)
                <= {
                    "GET",
                    "HEAD",
                    "POST",
                    "PUT",
                    "PATCH",
                    "DELETE",
                    "OPTIONS",
                }
            ):
                return set(content)
        view = getattr(view, "__wrapped__", None)
    return None


def test_every_post_endpoint_is_fuzzed():
    """A new view that accepts POST must join ENDPOINTS (or NOT_FUZZED, with why)."""
    # The API's endpoints take bearer tokens, not sessions: tests/api/test_api_fuzz.py.
    covered = set(ENDPOINTS) | set(NOT_FUZZED) | set(admin_page_names()) | API_FUZZED
    missing = []
    for name, view in _all_patterns():
        methods = _allowed_methods(view)
        if methods is not None and "POST" not in methods:
            continue
        if name in covered:
            continue
        if name.split(":")[0] == "admin" and name.split(":")[1].split("_")[0] in (
            "auth",
            "sites",
            "account",
            "oauth2",  # django-oauth-toolkit's models: admin:oauth2_provider_…
        ):
            continue  # NOT_FUZZED["admin:<django and allauth models>"]
        missing.append(name)
    assert not missing, f"POST endpoints the fuzzer does not cover: {missing}"


def test_the_table_names_only_real_endpoints():
    names = {name for name, _view in _all_patterns()}
    stale = [n for n in set(ENDPOINTS) | set(NOT_FUZZED) if n not in names and "<" not in n]
    assert stale == ["admin:read_only_pages"], stale


def test_the_coverage_check_reads_what_a_view_allows():
    """The check above would miss a new POST view if it misread decorators."""
    from django.views.decorators.http import require_GET, require_POST

    from games.web import match_views, site_views

    assert _allowed_methods(match_views.match_act) == {"POST"}
    assert _allowed_methods(match_views.match_detail) == {"GET"}
    assert "POST" in _allowed_methods(site_views.unsubscribe)
    assert _allowed_methods(require_POST(lambda request: None)) == {"POST"}
    assert _allowed_methods(require_GET(lambda request: None)) == {"GET"}
    assert _allowed_methods(lambda request: None) is None  # undecorated: takes any method


# -- The event stream (a token, not a session; long-lived) ---------------------------------


def _stream_tokens(make_user) -> dict[str, str]:
    from accounts import bots
    from api import tokens
    from api.models import ApiToken

    alice, bob = make_user("alice"), make_user("bob")
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    robot = make_user("robot")
    bots.become_bot(robot)
    made = {}
    for name, user, scopes in (
        ("reader", alice, ["match:read", "challenge:read"]),
        ("challenges", bob, ["challenge:read"]),
        ("no scope", alice, ["tournament:write", "match:play"]),
        ("revoked", alice, ["match:read"]),
        ("expired", bob, ["match:read"]),
        ("bot", robot, ["bot:play", "match:read"]),
    ):
        token, raw = tokens.make_token(user, name, scopes)
        if name == "revoked":
            tokens.revoke_token(user, token.pk)
        if name == "expired":
            ApiToken.objects.filter(pk=token.pk).update(expires_at="2000-01-01T00:00Z")
        made[name] = raw
    made["garbage"] = "smk_" + "x" * 43
    return made


def _stream_request(client, raw, data, where):
    headers = {"HTTP_AUTHORIZATION": f"Bearer {raw}"} if raw else {}
    query = {k: v for k, v in data.items() if k != "Last-Event-ID"}
    resume = data.get("Last-Event-ID")
    if resume is not None and where != "query":
        headers["HTTP_LAST_EVENT_ID"] = resume[0] if isinstance(resume, list) else resume
    return client.get(reverse("api_stream"), query, **headers)


def _json_refusal(response, where):
    assert response.status_code < 500, where
    if response.status_code >= 400:
        assert response["Content-Type"].startswith("application/json"), where
        assert response.json()["error"]["code"], where
        return True
    return False


@pytest.mark.django_db(transaction=True)
def test_the_event_stream_is_fuzzed(make_user, settings):
    """``GET /api/v1/stream`` with every kind of token (wrong scopes, revoked,
    expired, a bot account's, none, a session instead), forged ``since``,
    ``after`` and ``Last-Event-ID`` values, a second stream on the same
    token, and other methods: a 4xx JSON error or a stream read to its end,
    never a 500."""
    raws = _stream_tokens(make_user)
    session = Client()
    session.force_login(apps.get_model("auth", "User").objects.get(username="alice"))
    endpoint = TOKEN_ENDPOINTS["api_stream"]

    @hypothesis_settings(
        max_examples=STREAM_EXAMPLES,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow],
    )
    @given(
        kind=st.sampled_from(STREAM_TOKENS),
        data=form(endpoint.fields),
        where=st.sampled_from(["query", "header"]),
        second=st.booleans(),
        method=st.sampled_from(["get", "get", "get", "post", "put", "delete"]),
    )
    def example(kind, data, where, second, method):
        cache.clear()  # below every rate limit, and no stream's mark left
        client = session if kind == "session only" else Client()
        raw = raws.get(kind)
        where_ = (kind, data, where, second, method)
        if method != "get":
            response = getattr(client, method)(reverse("api_stream"), data)
            assert _json_refusal(response, where_) and response.status_code == 405, where_
            return
        first = None
        if second and raw:
            first = client.get(reverse("api_stream"), HTTP_AUTHORIZATION=f"Bearer {raw}")
        try:
            response = _stream_request(client, raw, data, where)
            if _json_refusal(response, where_):
                return
            assert kind in ("reader", "challenges", "bot") and first is None, where_
            drain(response)
        finally:
            if first is not None and first.status_code == 200:
                drain(first)

    with streams_end_at_once(settings):
        example()

"""The moderators' desk, on Django admin.

Everything here is read-only: changes go through ``games.moderation.actions``, each
from a form that asks for a reason and a confirmation, and each recorded in
the append-only ``ModerationAction`` audit.
"""

from __future__ import annotations

import json
from datetime import timedelta
from urllib.parse import urlsplit

from django import forms
from django.contrib import admin, messages
from django.contrib.auth import get_user_model
from django.core.exceptions import BadRequest, PermissionDenied
from django.db.models import Case, Count, OuterRef, Q, Subquery, When
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect
from django.urls import path, reverse
from django.utils import timezone
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from core.forms import whole_number
from games.engine import registry
from games.models import (
    Channel,
    ChannelDelivery,
    ChatMessage,
    DeliveryStatus,
    Invitation,
    Match,
    ModerationAction,
    Move,
    Notification,
    PushSubscription,
    ReplayComment,
    Report,
    Webhook,
)
from games.moderation import actions as moderation
from games.moderation import audit
from games.moderation.desk import HideMessageAdmin, ModerationForm, ReadOnlyAdmin, moderation_page
from games.play import clock

# -- Moderation forms ---------------------------------------------------------------------


class ExtendForm(ModerationForm):
    hours = forms.IntegerField(label=_("Hours to add"), min_value=1, max_value=24 * 30)


class SeatForm(ModerationForm):
    seat = forms.IntegerField(label=_("Seat number (1 = first)"), min_value=1, max_value=7)


class AdjudicateForm(ModerationForm):
    ranks = forms.CharField(
        label=_("Ranks by seat, comma-separated (1 = winner), e.g. 1,2,2"), max_length=40
    )

    def clean_ranks(self):
        try:
            return [int(part) for part in self.cleaned_data["ranks"].split(",")]
        except ValueError:
            raise forms.ValidationError(_("Give whole numbers separated by commas.")) from None


class UndoForm(ModerationForm):
    count = forms.IntegerField(label=_("How many moves to take back"), min_value=1)


class ResolveForm(forms.Form):
    resolution = forms.CharField(
        label=_("Resolution (kept in the audit)"), widget=forms.Textarea(attrs={"rows": 3})
    )
    confirm = forms.BooleanField(label=_("I have checked, do it"), required=True)


MATCH_OPERATIONS = {
    "abort": (
        _("Abort the match"),
        _("The match ends with no result. Players are told."),
        ModerationForm,
        lambda mod, match, data: moderation.abort_match(mod, match, data["reason"]),
    ),
    "extend": (
        _("Extend the deadline"),
        _("The player to move gets more time for this turn."),
        ExtendForm,
        lambda mod, match, data: moderation.extend_deadline(
            mod, match, data["hours"], data["reason"]
        ),
    ),
    "force_timeout": (
        _("Force the timeout now"),
        _("The match's timeout policy is applied to the player to move at once."),
        ModerationForm,
        lambda mod, match, data: moderation.force_timeout(mod, match, data["reason"]),
    ),
    "replace_with_bot": (
        _("Replace a seat with a bot"),
        _("A bot plays the seat from now on; the player will be ranked last."),
        SeatForm,
        lambda mod, match, data: moderation.replace_with_bot(
            mod, match, data["seat"] - 1, data["reason"]
        ),
    ),
    "reinstate": (
        _("Give a bot-held seat back to its player"),
        _("The player plays the seat again, with no strikes."),
        SeatForm,
        lambda mod, match, data: moderation.reinstate(mod, match, data["seat"] - 1, data["reason"]),
    ),
    "adjudicate": (
        _("Adjudicate the result"),
        _("The match ends with the ranks you give."),
        AdjudicateForm,
        lambda mod, match, data: moderation.adjudicate(mod, match, data["ranks"], data["reason"]),
    ),
    "correct_result": (
        _("Correct a finished match's result"),
        _(
            "The finished match gets the ranks you give; every rating it changed, and "
            "every later rating of its game, is computed again."
        ),
        AdjudicateForm,
        lambda mod, match, data: moderation.correct_result(
            mod, match, data["ranks"], data["reason"]
        ),
    ),
    "undo": (
        _("Undo the last moves"),
        _(
            "The log is replayed from the seed without the last moves. A finished match "
            "cannot be rewound: its seed is public."
        ),
        UndoForm,
        lambda mod, match, data: moderation.undo_moves(mod, match, data["count"], data["reason"]),
    ),
}


# -- Matches ----------------------------------------------------------------------------


class WaitingOnFilter(admin.SimpleListFilter):
    title = _("waiting on")
    parameter_name = "waiting"

    def lookups(self, request, model_admin):
        return [("player", _("a player")), ("bot", _("a bot")), ("nobody", _("nobody"))]

    def queryset(self, request, queryset):
        active = queryset.filter(status="active")
        if self.value() == "player":
            return active.filter(waiting_on__isnull=False)
        if self.value() == "bot":
            return active.filter(waiting_on__isnull=True, deadline__isnull=False)
        if self.value() == "nobody":
            return queryset.filter(deadline__isnull=True)
        return queryset


MAX_STALE_DAYS = 3650


class StaleFilter(admin.SimpleListFilter):
    title = _("stale for more than")
    parameter_name = "stale"

    def lookups(self, request, model_admin):
        return [("3", _("3 days")), ("7", _("7 days")), ("14", _("14 days")), ("30", _("30 days"))]

    def queryset(self, request, queryset):
        if self.value() is None:
            return queryset
        days = whole_number(self.value(), 1, MAX_STALE_DAYS)
        if days is None:
            raise BadRequest(_("Give whole days from 1 to %(max)d.") % {"max": MAX_STALE_DAYS})
        since = timezone.now() - timedelta(days=days)
        return queryset.filter(status__in=["open", "active"], updated_at__lt=since)


class ReportedFilter(admin.SimpleListFilter):
    title = _("reports")
    parameter_name = "reported"

    def lookups(self, request, model_admin):
        return [("open", _("with open reports")), ("any", _("ever reported"))]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(reports__resolved_at__isnull=True).distinct()
        if self.value() == "any":
            return queryset.filter(reports__isnull=False).distinct()
        return queryset


@admin.register(Match)
class MatchAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "game_key",
        "status",
        "players",
        "waiting_on",
        "version",
        "deadline",
        "updated_at",
        "open_reports",
    ]
    list_filter = ["game_key", "status", WaitingOnFilter, StaleFilter, ReportedFilter]
    search_fields = [
        "=id",
        "seats__user__username",
        "seats__user__email",
        "seats__user__profile__display_name",
    ]
    change_form_template = "admin/games/match/change_form.html"

    def get_queryset(self, request):
        return (
            super()
            .get_queryset(request)
            .select_related("waiting_on")
            .prefetch_related("seats__user")
            .annotate(
                open_report_count=Count("reports", filter=Q(reports__resolved_at__isnull=True))
            )
            .distinct()
        )

    def has_change_permission(self, request, obj=None):
        return False

    @admin.display(description=_("players"))
    def players(self, match):
        return ", ".join(s.user.username if s.user_id else "bot" for s in match.seats.all())

    @admin.display(description=_("open reports"), ordering="open_report_count")
    def open_reports(self, match):
        return match.open_report_count

    def get_urls(self):
        custom = [
            path(
                "<int:object_id>/moderate/<str:op>/",
                self.admin_site.admin_view(self.moderate_view),
                name="games_match_moderate",
            ),
        ]
        return custom + super().get_urls()

    def moderate_view(self, request, object_id: int, op: str):
        if op not in MATCH_OPERATIONS or not request.user.has_perm("games.moderate_match"):
            raise PermissionDenied
        match = get_object_or_404(Match, pk=object_id)
        if audit.plays_in(request.user, match):
            # Their own match: another moderator moderates it (the services refuse too).
            messages.error(request, audit.own_match_refusal())
            return redirect(reverse("admin:games_match_change", args=[match.pk]))
        title, description, form_class, execute = MATCH_OPERATIONS[op]
        return moderation_page(
            request,
            title=title,
            description=description,
            form_class=form_class,
            subject=match,
            execute=lambda data: execute(request.user, match, data),
            done_url=reverse("admin:games_match_change", args=[match.pk]),
        )

    #: What a moderator who plays the match is not shown of it: its seed and raw
    #: state (every seat's hand, the decks' order), here and in the desk below.
    SECRET_FIELDS = ("seed", "state")

    def _shown(self, request, obj, fields):
        if obj is not None and audit.plays_in(request.user, obj):
            return [name for name in fields if name not in self.SECRET_FIELDS]
        return list(fields)

    def get_fields(self, request, obj=None):
        return self._shown(request, obj, super().get_fields(request, obj))

    def get_readonly_fields(self, request, obj=None):
        return self._shown(request, obj, super().get_readonly_fields(request, obj))

    def change_view(self, request, object_id, form_url="", extra_context=None):
        # The address takes any text ("²", 30 digits): not a row's id, not found.
        pk = whole_number(object_id)
        if pk is None:
            raise Http404
        match = get_object_or_404(Match, pk=pk)
        extra_context = {**(extra_context or {}), **self.desk_context(request, match)}
        return super().change_view(request, object_id, form_url, extra_context)

    def desk_context(self, request, match: Match) -> dict:
        """Everything a moderator needs on one page, unredacted; for a moderator
        who holds a seat in the match, what its players see: no raw state, no
        seed, no move log with its private lines, and no action (their own
        matches are moderated by another moderator)."""
        game = registry.get(match.game_key)
        seats = list(match.seats.select_related("user__profile").order_by("index"))
        now = timezone.now()
        waiting_seat = (
            clock.waiting_seat(match, seats, game.current_seats(match.state))
            if match.state is not None
            else None
        )
        if audit.plays_in(request.user, match):
            return {
                "desk_own": audit.own_match_refusal(),
                "desk_seats": seats,
                "desk_waiting_seat": waiting_seat,
                "desk_time_left": clock.time_left(match, waiting_seat, now)
                if waiting_seat
                else None,
                "desk_chat": match.chat.select_related("user", "hidden_by"),
                "desk_reports": match.reports.select_related(
                    "reporter", "reported_user", "message"
                ),
                "desk_actions": match.moderation.select_related("moderator", "user"),
                "desk_operations": [],
            }
        return {
            "desk_own": "",
            "desk_seats": seats,
            "desk_waiting_seat": waiting_seat,
            "desk_time_left": clock.time_left(match, waiting_seat, now) if waiting_seat else None,
            "desk_state_json": json.dumps(match.state, indent=2, sort_keys=True),
            "desk_state_rows": _readable_state(match.state),
            "desk_moves": match.moves.select_related("actor").order_by("seq"),
            "desk_chat": match.chat.select_related("user", "hidden_by"),
            "desk_reports": match.reports.select_related("reporter", "reported_user", "message"),
            "desk_actions": match.moderation.select_related("moderator", "user"),
            "desk_operations": [(op, spec[0]) for op, spec in MATCH_OPERATIONS.items()]
            if request.user.has_perm("games.moderate_match")
            else [],
        }


def _readable_state(state) -> list[tuple[str, str]]:
    """Top-level state entries, each on one line, for a quick read."""
    if not isinstance(state, dict):
        return []
    return [(key, json.dumps(value, sort_keys=True)) for key, value in sorted(state.items())]


# -- Chat, reports, audit ------------------------------------------------------------------


@admin.register(ChatMessage)
class ChatMessageAdmin(HideMessageAdmin):
    list_display = ["created_at", "match", "user", "text", "hidden_at"]
    list_filter = [("hidden_at", admin.EmptyFieldListFilter)]
    search_fields = ["text", "user__username"]

    def hide(self, moderator, message, reason):
        moderation.hide_message(moderator, message, reason)

    def hide_done_url(self, message):
        return reverse("admin:games_match_change", args=[message.match_id])


@admin.register(ReplayComment)
class ReplayCommentAdmin(HideMessageAdmin):
    """Comments on finished matches' replays, hidden as chat messages are."""

    list_display = ["created_at", "match", "step", "user", "text", "hidden_at"]
    list_filter = [("hidden_at", admin.EmptyFieldListFilter)]
    search_fields = ["text", "user__username"]
    hide_title = _("Hide a replay comment")
    hide_description = _("Nobody will see it on the replay any more; it stays in the audit.")

    def hide(self, moderator, comment, reason):
        moderation.hide_replay_comment(moderator, comment, reason)

    def hide_done_url(self, comment):
        return reverse("admin:games_match_change", args=[comment.match_id])


class OpenFilter(admin.SimpleListFilter):
    title = _("state")
    parameter_name = "state"

    def lookups(self, request, model_admin):
        return [("open", _("open")), ("resolved", _("resolved"))]

    def queryset(self, request, queryset):
        if self.value() == "open":
            return queryset.filter(resolved_at__isnull=True)
        if self.value() == "resolved":
            return queryset.filter(resolved_at__isnull=False)
        return queryset


@admin.register(Report)
class ReportAdmin(ReadOnlyAdmin):
    """The queue of reports, oldest open ones first."""

    list_display = [
        "created_at",
        "reporter",
        "match_link",
        "reported_user",
        "about",
        "reason",
        "resolved_at",
    ]
    list_filter = [OpenFilter]
    ordering = ["resolved_at", "created_at"]
    change_form_template = "admin/games/report/change_form.html"

    @admin.display(description=_("match"))
    def match_link(self, report):
        url = reverse("admin:games_match_change", args=[report.match_id])
        return format_html('<a href="{}">#{}</a>', url, report.match_id)

    @admin.display(description=_("message"))
    def about(self, report):
        return report.message.text if report.message_id else ""

    def get_urls(self):
        return [
            path(
                "<int:object_id>/resolve/",
                self.admin_site.admin_view(self.resolve_view),
                name="games_report_resolve",
            ),
            path(
                "deactivate/<int:user_id>/",
                self.admin_site.admin_view(self.deactivate_view),
                name="games_deactivate_user",
            ),
        ] + super().get_urls()

    def resolve_view(self, request, object_id: int):
        if not request.user.has_perm("games.resolve_report"):
            raise PermissionDenied
        report = get_object_or_404(Report, pk=object_id)
        return moderation_page(
            request,
            title=_("Resolve a report"),
            description=report.reason,
            form_class=ResolveForm,
            subject=report,
            execute=lambda data: moderation.resolve_report(
                request.user, report, data["resolution"]
            ),
            done_url=reverse("admin:games_report_changelist") + "?state=open",
        )

    def deactivate_view(self, request, user_id: int):
        if not request.user.has_perm("games.deactivate_user"):
            raise PermissionDenied
        user = get_object_or_404(get_user_model(), pk=user_id)
        return moderation_page(
            request,
            title=_("Deactivate a user"),
            description=_(
                "They can no longer log in, and their matches in play go to the timeout policy."
            ),
            form_class=ModerationForm,
            subject=user,
            execute=lambda data: moderation.deactivate_user(request.user, user, data["reason"]),
            done_url=reverse("admin:games_moderationaction_changelist"),
        )


@admin.register(ModerationAction)
class ModerationActionAdmin(ReadOnlyAdmin):
    list_display = [
        "created_at",
        "moderator",
        "kind",
        "match",
        "user",
        "reason",
        "version_before",
        "version_after",
    ]
    list_filter = ["kind"]
    search_fields = ["reason", "moderator__username", "user__username"]


@admin.register(Invitation)
class InvitationAdmin(ReadOnlyAdmin):
    list_display = ["match", "invited_user", "invited_by", "created_at"]


@admin.register(Move)
class MoveAdmin(ReadOnlyAdmin):
    list_display = ["match", "seq", "seat", "actor_kind", "actor", "created_at"]
    list_filter = ["actor_kind"]

    def get_queryset(self, request):
        """Not the moves of a match the moderator plays: their events hold the
        other seats' private lines (``MatchAdmin.SECRET_FIELDS``)."""
        return super().get_queryset(request).exclude(match__seats__user=request.user)


class ChannelDeliveryInline(admin.TabularInline):
    """A notification's pushes and webhook posts, with their outcome."""

    model = ChannelDelivery
    fields = [
        "channel",
        "target_id",
        "version",
        "tag",
        "status",
        "attempts",
        "sent_at",
        "last_error",
    ]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_view_permission(self, request, obj=None):
        # Whoever may read the delivery log reads these rows of it.
        return request.user.has_perm("games.view_notification")


@admin.register(Notification)
class NotificationAdmin(ReadOnlyAdmin):
    """The delivery log: what was sent to whom, and what failed and why.
    Failed emails can be sent again (each with a reason, in the audit); the
    row's page lists its pushes and webhook posts too."""

    inlines = [ChannelDeliveryInline]

    list_display = [
        "created_at",
        "user",
        "match",
        "kind",
        "tag",
        "status",
        "attempts",
        "sent_at",
        "last_error",
    ]
    list_filter = ["status", "kind"]
    search_fields = ["user__username", "user__email", "last_error"]
    date_hierarchy = "created_at"
    actions = ["resend_failed"]

    def has_resend_email_permission(self, request):
        return request.user.has_perm("games.resend_email")

    @admin.action(
        description=_("Send the selected failed emails again"), permissions=["resend_email"]
    )
    def resend_failed(self, request, queryset):
        ids = ",".join(str(pk) for pk in queryset.values_list("pk", flat=True))
        return redirect(reverse("admin:games_notification_resend") + "?ids=" + ids)

    def get_urls(self):
        return [
            path(
                "resend/",
                self.admin_site.admin_view(self.resend_view),
                name="games_notification_resend",
            )
        ] + super().get_urls()

    def resend_view(self, request):
        if not request.user.has_perm("games.resend_email"):
            raise PermissionDenied
        ids = [whole_number(part) for part in request.GET.get("ids", "").split(",")]
        ids = [pk for pk in ids if pk is not None]
        rows = list(
            Notification.objects.filter(pk__in=ids, status=DeliveryStatus.FAILED).select_related(
                "user", "match"
            )
        )
        return moderation_page(
            request,
            title=_("Send failed emails again"),
            description=_(
                "Only failed emails are sent again; check first that the player did not get it."
            ),
            form_class=ModerationForm,
            subject="; ".join(f"{row} ({row.last_error})" for row in rows)
            or _("None of the selected emails has failed."),
            execute=lambda data: moderation.resend_emails(request.user, rows, data["reason"]),
            done_url=reverse("admin:games_notification_changelist") + "?status__exact=failed",
        )


# -- Pushes and webhook posts --------------------------------------------------------------


class DeliveryForFilter(admin.SimpleListFilter):
    """A player's notification, or a competition's feed (a tournament's
    webhooks, ``tournaments.feed``), which is no player's notification."""

    title = _("sent for")
    parameter_name = "for"

    def lookups(self, request, model_admin):
        return [("player", _("a player's notification")), ("feed", _("a competition's feed"))]

    def queryset(self, request, queryset):
        if self.value() == "player":
            return queryset.filter(notification__isnull=False)
        if self.value() == "feed":
            return queryset.filter(notification__isnull=True)
        return queryset


def _host(url: str | None) -> str:
    """Only the host of a webhook's or a device's address: the rest of a
    Discord or Slack address, or of a push endpoint, is a secret of its own."""
    return urlsplit(url or "").hostname or ""


@admin.register(ChannelDelivery)
class ChannelDeliveryAdmin(ReadOnlyAdmin):
    """Every push and webhook post, a player's or a competition's feed's,
    with what became of it: read-only, nothing to act on. The hook is named
    by its kind, its owner and its address's host, never its signing secret
    nor the rest of its address."""

    list_display = [
        "created_at",
        "channel",
        "hook",
        "sent_for",
        "status",
        "attempts",
        "next_attempt_at",
        "sent_at",
        "last_error",
    ]
    list_filter = ["status", "channel", DeliveryForFilter]
    search_fields = ["notification__user__username", "last_error"]
    date_hierarchy = "created_at"
    list_select_related = ["notification__user"]
    fields = [
        "created_at",
        "channel",
        "hook",
        "sent_for",
        "event",
        "version",
        "tag",
        "status",
        "attempts",
        "next_attempt_at",
        "claimed_at",
        "sent_at",
        "last_error",
    ]

    def get_readonly_fields(self, request, obj=None):
        return self.fields

    def has_view_permission(self, request, obj=None):
        # Whoever may read the delivery log reads these rows of it.
        return request.user.has_perm("games.view_notification")

    def get_queryset(self, request):
        is_hook = Q(channel=Channel.WEBHOOK)
        hooks = Webhook.objects.filter(pk=OuterRef("target_id"))
        devices = PushSubscription.objects.filter(pk=OuterRef("target_id"))

        def either(field):
            return Case(
                When(is_hook, then=Subquery(hooks.values(field)[:1])),
                default=Subquery(devices.values(field)[:1]),
            )

        return (
            super()
            .get_queryset(request)
            .annotate(
                hook_kind=Case(When(is_hook, then=Subquery(hooks.values("kind")[:1]))),
                hook_owner=either("user__username"),
                hook_address=Case(
                    When(is_hook, then=Subquery(hooks.values("url")[:1])),
                    default=Subquery(devices.values("endpoint")[:1]),
                ),
            )
            .order_by("-created_at", "-pk")
        )

    @admin.display(description=_("sent to"))
    def hook(self, row):
        if row.hook_owner is None:
            return _("#%(id)s, removed") % {"id": row.target_id}
        kind = (
            Webhook.Kind(row.hook_kind).label
            if row.hook_kind in Webhook.Kind.values
            else Channel(row.channel).label
        )
        return f"{kind} #{row.target_id}: {row.hook_owner}, {_host(row.hook_address)}"

    @admin.display(description=_("sent for"))
    def sent_for(self, row):
        if row.notification_id is None:
            title = (row.event or {}).get("title", "")
            return _("Feed: %(title)s") % {"title": title}
        return str(row.notification.user)

"""The moderators' desk for tournaments (Django admin), read-only like the
games' desk: cancelling a tournament and removing an entrant go through
``tournaments.services`` from a form that asks for a reason, each recorded
in the audit log (``games.ModerationAction``). A tournament match's result is
decided on the match's own desk page (Adjudicate), as for any match: the
match's end then advances the tournament. A tournament chat's line is hidden
from its desk page ("Hide"), as a match chat's is."""

from __future__ import annotations

from django.contrib import admin
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from core.forms import whole_number
from games.moderation.desk import HideMessageAdmin, ReadOnlyAdmin, reason_page
from tournaments import chat, services
from tournaments.models import Entrant, Placement, Round, Tournament, TournamentMessage


class EntrantInline(admin.TabularInline):
    model = Entrant
    fields = ["user", "rating", "status", "joined_at", "remove_link"]
    readonly_fields = fields
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    @admin.display(description=_("Moderate"))
    def remove_link(self, entrant):
        if entrant.tournament.is_over:
            return ""
        url = reverse("admin:tournaments_entrant_remove", args=[entrant.pk])
        return format_html('<a href="{}">{}</a>', url, _("Remove"))


@admin.register(Tournament)
class TournamentAdmin(ReadOnlyAdmin):
    list_display = [
        "name",
        "game_key",
        "format",
        "status",
        "starts_at",
        "start_when_full",
        "current_round",
        "rounds",
    ]
    list_filter = ["status", "format", "game_key"]
    search_fields = ["name", "created_by__username"]
    inlines = [EntrantInline]

    def get_urls(self):
        return [
            path(
                "<int:pk>/cancel/",
                self.admin_site.admin_view(self.cancel_view),
                name="tournaments_tournament_cancel",
            ),
            path(
                "entrant/<int:pk>/remove/",
                self.admin_site.admin_view(self.remove_view),
                name="tournaments_entrant_remove",
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra = dict(extra_context or {})
        pk = whole_number(object_id)
        if pk is not None:  # a forged id ("²") gets the admin's own answer, not a link
            extra["cancel_url"] = reverse("admin:tournaments_tournament_cancel", args=[pk])
        return super().change_view(request, object_id, form_url, extra)

    def cancel_view(self, request, pk: int):
        tournament = get_object_or_404(Tournament, pk=pk)
        return reason_page(
            request,
            permission="tournaments.moderate_tournament",
            title=_("Cancel the tournament"),
            subject=str(tournament),
            execute=lambda reason: services.cancel(request.user, tournament, reason),
            done_url=reverse("admin:tournaments_tournament_change", args=[pk]),
        )

    def remove_view(self, request, pk: int):
        entrant = get_object_or_404(Entrant, pk=pk)
        return reason_page(
            request,
            permission="tournaments.moderate_tournament",
            title=_("Remove the entrant"),
            subject=str(entrant),
            execute=lambda reason: services.remove_entrant(request.user, entrant, reason),
            done_url=reverse("admin:tournaments_tournament_change", args=[entrant.tournament_id]),
        )


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "number", "started_at", "finished_at"]


@admin.register(Placement)
class PlacementAdmin(ReadOnlyAdmin):
    list_display = ["round", "table", "seat", "entrant", "match", "points", "is_bye", "aborted"]
    list_select_related = ["round__tournament", "entrant__user", "match"]


@admin.register(TournamentMessage)
class TournamentMessageAdmin(HideMessageAdmin):
    list_display = ["created_at", "tournament", "user", "text", "hidden_at", "hide_link"]
    list_filter = [("hidden_at", admin.EmptyFieldListFilter)]
    list_select_related = ["tournament", "user"]
    search_fields = ["text", "user__username", "tournament__name"]
    hide_permission = chat.MODERATE_CHAT

    @admin.display(description=_("Moderate"))
    def hide_link(self, message):
        if message.hidden_at is not None:
            return ""
        url = reverse("admin:tournaments_tournamentmessage_hide", args=[message.pk])
        return format_html('<a href="{}">{}</a>', url, _("Hide"))

    def hide(self, moderator, message, reason):
        chat.hide_message(moderator, message, reason)

    def hide_done_url(self, message):
        return reverse("admin:tournaments_tournamentmessage_changelist")

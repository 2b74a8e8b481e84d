"""The moderators' desk for seasons: read-only lists, and cancelling a
season (``services.cancel``: its divisions' tournaments with it, audited).
A division's tournament is moderated on the tournaments' desk (cancel,
remove an entrant), which is where a season's matches live."""

from django.contrib import admin
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.translation import gettext_lazy as _

from core.forms import whole_number
from games.moderation.desk import ReadOnlyAdmin, reason_page
from seasons import services
from seasons.models import Division, Season, SeasonEntry


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("game_key", "year", "quarter", "status", "starts_at")
    list_filter = ("status", "game_key")

    def get_urls(self):
        return [
            path(
                "<int:pk>/cancel/",
                self.admin_site.admin_view(self.cancel_view),
                name="seasons_season_cancel",
            ),
            *super().get_urls(),
        ]

    def change_view(self, request, object_id, form_url="", extra_context=None):
        extra = dict(extra_context or {})
        pk = whole_number(object_id)
        if pk is not None:  # a forged id gets the admin's own answer, not a link
            extra["cancel_url"] = reverse("admin:seasons_season_cancel", args=[pk])
        return super().change_view(request, object_id, form_url, extra)

    def cancel_view(self, request, pk: int):
        season = get_object_or_404(Season, pk=pk)
        return reason_page(
            request,
            permission="tournaments.moderate_tournament",
            title=_("Cancel the season"),
            description=_(
                "Its divisions' tournaments are cancelled with it; matches in play go on "
                "as ordinary matches, and nobody moves up or down."
            ),
            subject=str(season),
            execute=lambda reason: services.cancel(request.user, season, reason),
            done_url=reverse("admin:seasons_season_change", args=[pk]),
        )


@admin.register(Division)
class DivisionAdmin(ReadOnlyAdmin):
    list_display = ("season", "tier", "number", "tournament")
    list_filter = ("season",)


@admin.register(SeasonEntry)
class SeasonEntryAdmin(ReadOnlyAdmin):
    list_display = ("season", "user", "division", "final_place", "movement")
    search_fields = ("user__username",)

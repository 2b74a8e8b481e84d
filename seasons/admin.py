"""The moderators' desk for seasons: read-only lists. A division's
tournament is moderated on the tournaments' desk (cancel, remove an
entrant), which is where a season's matches live."""

from django.contrib import admin

from games.moderation.desk import ReadOnlyAdmin
from seasons.models import Division, Season, SeasonEntry


@admin.register(Season)
class SeasonAdmin(ReadOnlyAdmin):
    list_display = ("game_key", "year", "quarter", "status", "starts_at")
    list_filter = ("status", "game_key")


@admin.register(Division)
class DivisionAdmin(ReadOnlyAdmin):
    list_display = ("season", "tier", "number", "tournament")
    list_filter = ("season",)


@admin.register(SeasonEntry)
class SeasonEntryAdmin(ReadOnlyAdmin):
    list_display = ("season", "user", "division", "final_place", "movement")
    search_fields = ("user__username",)

"""The moderators' desk for ratings and blocks (``accounts.Block``): read-only; a result is
corrected on the match (``games.moderation.actions.correct_result``), which rebuilds
the ratings it affected."""

from django.contrib import admin

from accounts.models import Block
from games.moderation.desk import ReadOnlyAdmin
from players.models import Rating, RatingChange


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game_key", "display", "rated_matches", "wins", "last_played_at")
    list_filter = ("game_key",)
    search_fields = ("user__username",)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("match", "user", "game_key", "rank", "display_before", "display_after")
    list_filter = ("game_key",)
    search_fields = ("user__username",)


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")

"""The moderators' desk for ratings and blocks (``accounts.Block``): read-only; a result is
corrected on the match (``games.moderation.actions.correct_result``), which rebuilds
the ratings it affected. The ratings' list links to the suspicious pairs
(``players.pairs``): accounts that meet again and again, one always losing, or
whose matches end at once."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import render
from django.urls import path
from django.utils.translation import gettext as _

from accounts.models import Block
from games.moderation.desk import ReadOnlyAdmin
from players import pairs
from players.models import Rating, RatingChange
from players.ratings import PAIR_LIMIT, PAIR_WINDOW


@admin.register(Rating)
class RatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "game_key", "display", "rated_matches", "wins", "last_played_at")
    list_filter = ("game_key",)
    search_fields = ("user__username",)

    def get_urls(self):
        return [
            path(
                "suspicious-pairs/",
                self.admin_site.admin_view(self.pairs_view),
                name="players_suspicious_pairs",
            )
        ] + super().get_urls()

    def pairs_view(self, request):
        if not request.user.has_perm("players.view_ratingchange"):
            raise PermissionDenied
        description = _(
            "Pairs of players in the last %(days)d days of rated matches: with %(limit)d "
            "results or more together (later ones change no rating), one side losing every "
            "one of %(losing)d or more, or %(quick)d or more matches ended by a resignation "
            "or a loss on time within %(entries)d moves or before each seat moved."
        ) % {
            "days": PAIR_WINDOW.days,
            "limit": PAIR_LIMIT,
            "losing": pairs.ALWAYS_LOSING,
            "quick": pairs.QUICK_ENDS,
            "entries": pairs.QUICK_ENTRIES,
        }
        context = {
            **self.admin_site.each_context(request),
            "title": _("Suspicious pairs"),
            "description": description,
            "pairs": pairs.suspicious_pairs(),
        }
        return render(request, "admin/players/suspicious_pairs.html", context)


@admin.register(RatingChange)
class RatingChangeAdmin(ReadOnlyAdmin):
    list_display = ("match", "user", "game_key", "rank", "display_before", "display_after")
    list_filter = ("game_key",)
    search_fields = ("user__username",)


@admin.register(Block)
class BlockAdmin(ReadOnlyAdmin):
    list_display = ("blocker", "blocked", "created_at")
    search_fields = ("blocker__username", "blocked__username")

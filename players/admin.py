"""The moderators' desk for ratings and blocks (``accounts.Block``): read-only; a result is
corrected on the match (``games.moderation.actions.correct_result``), which rebuilds
the ratings it affected. The ratings' list links to the suspicious pairs
(``players.pairs``): accounts that meet again and again, one always losing, or
whose matches end at once. The players' profiles get two actions, each with a
reason kept in the one audit: remove a picture, remove a bio
(``players.moderation``)."""

from django.contrib import admin
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from accounts.admin import ProfileAdmin
from accounts.models import Block, Profile
from games.moderation.desk import ReadOnlyAdmin, reason_page
from players import moderation, pairs
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


admin.site.unregister(Profile)


@admin.register(Profile)
class IdentityProfileAdmin(ProfileAdmin):
    """The accounts' profile list, with links to remove a picture or a bio."""

    list_display = [*ProfileAdmin.list_display, "country", "remove_picture_link", "remove_bio_link"]

    @admin.display(description=gettext_lazy("picture"))
    def remove_picture_link(self, profile):
        if not profile.picture:
            return ""
        url = reverse("admin:players_remove_picture", args=[profile.user_id])
        return format_html('<a href="{}">{}</a>', url, _("Remove the picture"))

    @admin.display(description=gettext_lazy("bio"))
    def remove_bio_link(self, profile):
        if not profile.bio:
            return ""
        url = reverse("admin:players_remove_bio", args=[profile.user_id])
        return format_html('<a href="{}">{}</a>', url, _("Remove the bio"))

    def get_urls(self):
        return [
            path(
                "<int:user_id>/remove-picture/",
                self.admin_site.admin_view(self.remove_picture_view),
                name="players_remove_picture",
            ),
            path(
                "<int:user_id>/remove-bio/",
                self.admin_site.admin_view(self.remove_bio_view),
                name="players_remove_bio",
            ),
        ] + super().get_urls()

    def remove_picture_view(self, request, user_id: int):
        profile = get_object_or_404(Profile.objects.select_related("user"), user_id=user_id)
        return reason_page(
            request,
            permission=moderation.PERMISSION,
            title=_("Remove a player's picture"),
            description=_("Their page shows the drawn picture instead; they may upload another."),
            subject=profile,
            execute=lambda reason: moderation.remove_picture(request.user, profile.user, reason),
            done_url=reverse("admin:games_moderationaction_changelist"),
        )

    def remove_bio_view(self, request, user_id: int):
        profile = get_object_or_404(Profile.objects.select_related("user"), user_id=user_id)
        return reason_page(
            request,
            permission=moderation.PERMISSION,
            title=_("Remove a player's bio"),
            description=_("The words are kept in the audit; they may write others."),
            subject=profile,
            execute=lambda reason: moderation.remove_bio(request.user, profile.user, reason),
            done_url=reverse("admin:games_moderationaction_changelist"),
        )

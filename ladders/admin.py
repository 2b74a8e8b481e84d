"""The moderators' desk for ladders: read-only lists of ladders, players on
them and challenges, and two actions with a reason kept in the moderators'
one audit (``ladders.services.remove_entry`` and ``cancel_challenge``), on
the same confirmation page as the match actions."""

from django.contrib import admin
from django.shortcuts import get_object_or_404
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.moderation.desk import ReadOnlyAdmin, reason_page
from ladders import services
from ladders.models import Challenge, Entry, Ladder


@admin.register(Ladder)
class LadderAdmin(ReadOnlyAdmin):
    list_display = ("game_key", "created_at")


@admin.register(Entry)
class EntryAdmin(ReadOnlyAdmin):
    list_display = ("ladder", "rung", "user", "joined_at", "remove_link")
    list_filter = ("ladder",)
    search_fields = ("user__username",)
    ordering = ("ladder", "rung")

    @admin.display(description=gettext_lazy("remove"))
    def remove_link(self, entry):
        url = reverse("admin:ladders_entry_remove", args=[entry.pk])
        return format_html('<a href="{}">{}</a>', url, _("Remove from the ladder"))

    def get_urls(self):
        return [
            path(
                "<int:object_id>/remove/",
                self.admin_site.admin_view(self.remove_view),
                name="ladders_entry_remove",
            )
        ] + super().get_urls()

    def remove_view(self, request, object_id: int):
        entry = get_object_or_404(Entry.objects.select_related("user", "ladder"), pk=object_id)
        return reason_page(
            request,
            permission="ladders.moderate_ladder",
            title=_("Remove a player from a ladder"),
            description=_(
                "Everyone below moves up one place; their challenges not yet accepted are cancelled."
            ),
            subject=entry,
            execute=lambda reason: services.remove_entry(request.user, entry.pk, reason),
            done_url=reverse("admin:games_moderationaction_changelist"),
        )


@admin.register(Challenge)
class ChallengeAdmin(ReadOnlyAdmin):
    list_display = (
        "created_at",
        "ladder",
        "challenger",
        "challenged",
        "match",
        "status",
        "outcome",
        "accept_by",
        "cancel_link",
    )
    list_filter = ("status", "outcome", "ladder")
    search_fields = ("challenger__username", "challenged__username")

    @admin.display(description=gettext_lazy("cancel"))
    def cancel_link(self, challenge):
        if not challenge.is_open:
            return ""
        url = reverse("admin:ladders_challenge_cancel", args=[challenge.pk])
        return format_html('<a href="{}">{}</a>', url, _("Cancel the challenge"))

    def get_urls(self):
        return [
            path(
                "<int:object_id>/cancel/",
                self.admin_site.admin_view(self.cancel_view),
                name="ladders_challenge_cancel",
            )
        ] + super().get_urls()

    def cancel_view(self, request, object_id: int):
        challenge = get_object_or_404(Challenge, pk=object_id)
        return reason_page(
            request,
            permission="ladders.moderate_ladder",
            title=_("Cancel a ladder challenge"),
            description=_(
                "Nobody changes place. A match not yet started is aborted; one in play goes on."
            ),
            subject=challenge,
            execute=lambda reason: services.cancel_challenge(request.user, challenge.pk, reason),
            done_url=reverse("admin:games_moderationaction_changelist"),
        )

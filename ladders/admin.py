"""The moderators' desk for ladders: read-only lists of ladders, players on
them, challenges and the ladder audit, and two actions with a reason kept
in the audit (``ladders.services.remove_entry`` and ``cancel_challenge``),
on the same confirmation page as the match actions."""

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path, reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from games.errors import ServiceError
from ladders import services
from ladders.models import Challenge, Entry, Ladder, LadderAudit


class ReadOnlyAdmin(admin.ModelAdmin):
    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ReasonForm(forms.Form):
    reason = forms.CharField(
        label=gettext_lazy("Reason (kept in the audit)"), widget=forms.Textarea(attrs={"rows": 3})
    )
    confirm = forms.BooleanField(label=gettext_lazy("I have checked, do it"), required=True)


def _action_page(request, *, title, description, subject, execute, done_url):
    """GET: the form, which says what will happen. POST: do it, or say why not."""
    if not request.user.has_perm("ladders.moderate_ladder"):
        raise PermissionDenied
    form = ReasonForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            execute(form.cleaned_data["reason"])
        except ServiceError as error:
            messages.error(request, error.message)
        else:
            messages.success(request, _("Done: %(what)s.") % {"what": title})
            return redirect(done_url)
    context = {
        **admin.site.each_context(request),
        "title": title,
        "description": description,
        "subject": subject,
        "form": form,
        "cancel_url": done_url,
    }
    return render(request, "admin/games/moderate.html", context)


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
        return _action_page(
            request,
            title=_("Remove a player from a ladder"),
            description=_(
                "Everyone below moves up one place; their challenges not yet accepted are cancelled."
            ),
            subject=entry,
            execute=lambda reason: services.remove_entry(request.user, entry.pk, reason),
            done_url=reverse("admin:ladders_ladderaudit_changelist"),
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
        return _action_page(
            request,
            title=_("Cancel a ladder challenge"),
            description=_(
                "Nobody changes place. A match not yet started is aborted; one in play goes on."
            ),
            subject=challenge,
            execute=lambda reason: services.cancel_challenge(request.user, challenge.pk, reason),
            done_url=reverse("admin:ladders_ladderaudit_changelist"),
        )


@admin.register(LadderAudit)
class LadderAuditAdmin(ReadOnlyAdmin):
    list_display = ("created_at", "moderator", "kind", "ladder", "user", "challenge", "reason")
    list_filter = ("kind",)

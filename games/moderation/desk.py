"""What every moderators' desk page shares (Django admin): read-only model
pages, the form that asks for a reason and a confirmation, and the page that
shows it and carries the action out. The games', the players', the ladders'
and the tournaments' desks (each app's ``admin.py``) are built from these, so
every action is asked for and confirmed the same way."""

from __future__ import annotations

from django import forms
from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import path
from django.utils.translation import gettext_lazy as _

from core import errors


class ReadOnlyAdmin(admin.ModelAdmin):
    """A model shown, never edited: changes go through the services, with a reason."""

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in self.model._meta.fields]

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


class ModerationForm(forms.Form):
    reason = forms.CharField(
        label=_("Reason (kept in the audit)"), widget=forms.Textarea(attrs={"rows": 3})
    )
    confirm = forms.BooleanField(label=_("I have checked, do it"), required=True)


def moderation_page(
    request, *, title, description, form_class, subject, execute, done_url, permission=None
):
    """GET: the form, which says what will happen. POST: do it, or say why not.

    ``execute`` gets the form's cleaned data; a refusal of the services is shown
    on the page and changes nothing. ``permission``, when given, is required."""
    if permission is not None and not request.user.has_perm(permission):
        raise PermissionDenied
    form = form_class(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            execute(form.cleaned_data)
        except errors.ServiceError as error:
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


def reason_page(request, *, permission, title, subject, execute, done_url, description=""):
    """A ``moderation_page`` whose action needs only the reason: ``execute(reason)``."""
    return moderation_page(
        request,
        title=title,
        description=description,
        form_class=ModerationForm,
        subject=subject,
        execute=lambda data: execute(data["reason"]),
        done_url=done_url,
        permission=permission,
    )


class HideMessageAdmin(ReadOnlyAdmin):
    """The desk page of a model of player messages (a match's chat, a replay's
    comments, a tournament's chat): each row's "hide" page asks for a reason and
    hides it through the model's own service, audited there. A subclass says
    how to hide (``hide``) and where to go after (``hide_done_url``)."""

    hide_title = _("Hide a chat message")
    hide_description = _("Players will no longer see it; it stays in the audit.")
    hide_permission = "games.moderate_chat"

    def hide(self, moderator, message, reason: str) -> None:
        raise NotImplementedError

    def hide_done_url(self, message) -> str:
        raise NotImplementedError

    def get_urls(self):
        meta = self.model._meta
        return [
            path(
                "<int:object_id>/hide/",
                self.admin_site.admin_view(self.hide_view),
                name=f"{meta.app_label}_{meta.model_name}_hide",
            ),
            *super().get_urls(),
        ]

    def hide_view(self, request, object_id: int):
        if not request.user.has_perm(self.hide_permission):
            raise PermissionDenied
        message = get_object_or_404(self.model.objects.select_related("user"), pk=object_id)
        return reason_page(
            request,
            permission=self.hide_permission,
            title=self.hide_title,
            description=self.hide_description,
            subject=f"{message.user}: {message.text}",
            execute=lambda reason: self.hide(request.user, message, reason),
            done_url=self.hide_done_url(message),
        )

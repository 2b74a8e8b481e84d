"""A read-only look at matches for staff. Changes go through services, never here."""

from django.contrib import admin

from games.models import Invitation, Match, Move, Notification, Seat


class ReadOnlyInline(admin.TabularInline):
    extra = 0
    can_delete = False

    def has_add_permission(self, request, obj=None):
        return False

    def has_change_permission(self, request, obj=None):
        return False


class SeatInline(ReadOnlyInline):
    model = Seat
    fields = ["index", "user", "is_bot", "status", "strikes", "rank", "score"]
    readonly_fields = fields


class MoveInline(ReadOnlyInline):
    model = Move
    fields = ["seq", "seat", "actor_kind", "actor", "action", "events", "created_at"]
    readonly_fields = fields


@admin.register(Match)
class MatchAdmin(admin.ModelAdmin):
    list_display = ["id", "game_key", "status", "n_seats", "version", "deadline", "updated_at"]
    list_filter = ["game_key", "status", "visibility"]
    search_fields = ["seats__user__username", "seats__user__email"]
    inlines = [SeatInline, MoveInline]

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Match._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False


@admin.register(Invitation)
class InvitationAdmin(admin.ModelAdmin):
    list_display = ["match", "invited_user", "invited_by", "created_at"]


@admin.register(Notification)
class NotificationAdmin(admin.ModelAdmin):
    """The delivery log: what was sent to whom, and what failed and why."""

    list_display = ["created_at", "user", "match", "kind", "tag", "status", "attempts", "sent_at"]
    list_filter = ["status", "kind"]
    search_fields = ["user__username", "user__email", "last_error"]
    date_hierarchy = "created_at"

    def get_readonly_fields(self, request, obj=None):
        return [field.name for field in Notification._meta.fields]

    def has_add_permission(self, request):
        return False

    def has_delete_permission(self, request, obj=None):
        return False

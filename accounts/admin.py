from django.contrib import admin

from accounts.models import Profile


@admin.register(Profile)
class ProfileAdmin(admin.ModelAdmin):
    list_display = ["user", "display_name", "language", "timezone"]
    search_fields = ["user__username", "user__email", "display_name"]

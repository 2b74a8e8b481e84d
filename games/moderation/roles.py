"""The "moderator" group: exactly the permissions the moderators' desk needs.

A moderator is a staff user in this group; superuser status is not needed.
The group is created, and its permissions reset, after every migrate.
"""

from django.contrib.auth.models import Group, Permission

MODERATOR_GROUP = "moderator"

MODERATOR_PERMISSIONS = [
    ("games", "view_match"),
    ("games", "moderate_match"),
    ("games", "view_seat"),
    ("games", "view_move"),
    ("games", "view_invitation"),
    ("games", "view_notification"),
    ("games", "resend_email"),
    ("games", "view_chatmessage"),
    ("games", "moderate_chat"),
    ("games", "view_report"),
    ("games", "resolve_report"),
    ("games", "view_moderationaction"),
    ("games", "deactivate_user"),
    ("tournaments", "view_tournament"),
    ("tournaments", "moderate_tournament"),
    ("tournaments", "view_entrant"),
    ("tournaments", "view_round"),
    ("tournaments", "view_placement"),
    ("auth", "view_user"),
    ("accounts", "view_profile"),
    ("ladders", "view_ladder"),
    ("ladders", "view_entry"),
    ("ladders", "view_challenge"),
    ("ladders", "moderate_ladder"),
]


def ensure_moderator_group(**kwargs) -> Group:
    group, _created = Group.objects.get_or_create(name=MODERATOR_GROUP)
    permissions = [
        Permission.objects.get(content_type__app_label=app, codename=codename)
        for app, codename in MODERATOR_PERMISSIONS
        if Permission.objects.filter(content_type__app_label=app, codename=codename).exists()
    ]
    group.permissions.set(permissions)
    return group


def is_moderator(user) -> bool:
    """A member of the moderator group (or a superuser). Staff status alone
    is not enough: it only opens the admin, not private matches."""
    if not user.is_authenticated or not user.is_active:
        return False
    return user.is_superuser or (
        user.is_staff and user.groups.filter(name=MODERATOR_GROUP).exists()
    )

"""The "moderator" group: exactly the permissions the moderators' desks need.

A moderator is a staff user in this group; superuser status is not needed.
Each app names the permissions its desk needs when it starts
(``register_permissions``), so this list names no app's models; the group is
created, and its permissions reset, after every migrate.
"""

from django.contrib.auth.models import Group, Permission

MODERATOR_GROUP = "moderator"

#: (app label, codename) of every permission the group holds; the accounts'
#: own here, each other app's added by ``register_permissions``.
MODERATOR_PERMISSIONS: list[tuple[str, str]] = [
    ("auth", "view_user"),
    ("accounts", "view_profile"),
]


def register_permissions(app_label: str, codenames: list[str]) -> None:
    """Give the moderators these permissions of ``app_label`` (its ``ready``)."""
    for codename in codenames:
        if (app_label, codename) not in MODERATOR_PERMISSIONS:
            MODERATOR_PERMISSIONS.append((app_label, codename))


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

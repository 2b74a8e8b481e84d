"""The ladders' own audit table joins the moderators' one audit.

Every ``LadderAudit`` row becomes a ``ModerationAction`` of the same kind,
moderator, player, reason and time, its ladder (by game) and challenge kept
in ``details`` (the challenge's match as the action's match); then the table
goes. Whoever held the permission to read the ladder audit is given the one
to read the moderators' audit, so nobody loses sight of a row.
"""

from django.db import migrations


def copy_rows(apps, schema_editor):
    LadderAudit = apps.get_model("ladders", "LadderAudit")
    ModerationAction = apps.get_model("games", "ModerationAction")
    for row in LadderAudit.objects.select_related("ladder", "challenge").order_by("pk"):
        details = {"ladder": row.ladder.game_key, **(row.details or {})}
        if row.challenge_id is not None:
            details["challenge"] = row.challenge_id
        action = ModerationAction.objects.create(
            moderator_id=row.moderator_id,
            kind=row.kind,
            reason=row.reason,
            user_id=row.user_id,
            match_id=row.challenge.match_id if row.challenge_id is not None else None,
            details=details,
        )
        # auto_now_add stamped it now; it keeps the moment it was done.
        ModerationAction.objects.filter(pk=action.pk).update(created_at=row.created_at)


def carry_permission(apps, schema_editor):
    Permission = apps.get_model("auth", "Permission")
    old = Permission.objects.filter(
        content_type__app_label="ladders", codename="view_ladderaudit"
    ).first()
    new = Permission.objects.filter(
        content_type__app_label="games", codename="view_moderationaction"
    ).first()
    if old is None or new is None:  # a fresh database: permissions come after migrating
        return
    for group in old.group_set.all():
        group.permissions.add(new)
    for user in old.user_set.all():
        user.user_permissions.add(new)


class Migration(migrations.Migration):
    dependencies = [
        ("ladders", "0001_initial"),
        ("games", "0018_kinds_registered_by_apps"),
        ("auth", "0012_alter_user_first_name_max_length"),
    ]

    operations = [
        migrations.RunPython(copy_rows, migrations.RunPython.noop),
        migrations.RunPython(carry_permission, migrations.RunPython.noop),
        migrations.DeleteModel(name="LadderAudit"),
    ]

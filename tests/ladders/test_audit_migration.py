"""The ladders' own audit rows join the moderators' one audit
(``ladders/migrations/0002_audit_into_moderation_actions.py``): every row is
kept, with its kind, moderator, player, reason, time, ladder and challenge,
and whoever could read the ladder audit can read the moderators' one."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from django.db import connection

from tests.migrations import migrate_to

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_migrations_afterwards"),
]


BEFORE = [("ladders", "0001_initial"), ("games", "0018_kinds_registered_by_apps")]
AFTER = [("ladders", "0002_audit_into_moderation_actions")]


def test_every_ladder_audit_row_becomes_a_moderation_action():
    old = migrate_to(BEFORE)
    User = old.get_model("auth", "User")
    Ladder = old.get_model("ladders", "Ladder")
    Challenge = old.get_model("ladders", "Challenge")
    LadderAudit = old.get_model("ladders", "LadderAudit")
    Match = old.get_model("games", "Match")
    Group = old.get_model("auth", "Group")
    Permission = old.get_model("auth", "Permission")
    ContentType = old.get_model("contenttypes", "ContentType")
    moderator = User.objects.create(username="mod", is_staff=True)
    p1 = User.objects.create(username="p1")
    p2 = User.objects.create(username="p2")
    ladder = Ladder.objects.create(game_key="drako")
    match = Match.objects.create(
        game_key="drako",
        rules_version=1,
        n_seats=2,
        seed="s",
        seed_hash="h",
        invite_token="t",
        created_by=p2,
    )
    challenge = Challenge.objects.create(
        ladder=ladder,
        challenger=p2,
        challenged=p1,
        match=match,
        accept_by=datetime(2026, 1, 8, tzinfo=UTC),
    )
    then = datetime(2026, 1, 2, 3, 4, 5, tzinfo=UTC)
    removed = LadderAudit.objects.create(
        moderator=moderator,
        kind="remove_player",
        ladder=ladder,
        user=p2,
        reason="a cheat, see report 12",
        details={"rung": 3},
    )
    cancelled = LadderAudit.objects.create(
        moderator=moderator,
        kind="cancel_challenge",
        ladder=ladder,
        user=p2,
        challenge=challenge,
        reason="both asked us to",
    )
    LadderAudit.objects.filter(pk=removed.pk).update(created_at=then)
    LadderAudit.objects.filter(pk=cancelled.pk).update(created_at=then + timedelta(hours=1))
    # A group (not the moderators', whose permissions every migrate resets)
    # that may read the ladder audit.
    for app_label, model in (("ladders", "ladderaudit"), ("games", "moderationaction")):
        content_type, _ = ContentType.objects.get_or_create(app_label=app_label, model=model)
        Permission.objects.get_or_create(
            content_type=content_type, codename=f"view_{model}", defaults={"name": model}
        )
    readers = Group.objects.create(name="ladder readers")
    readers.permissions.add(Permission.objects.get(codename="view_ladderaudit"))

    new = migrate_to(AFTER)
    ModerationAction = new.get_model("games", "ModerationAction")
    rows = list(ModerationAction.objects.order_by("created_at"))
    assert [(r.kind, r.user_id, r.reason, r.moderator_id) for r in rows] == [
        ("remove_player", p2.pk, "a cheat, see report 12", moderator.pk),
        ("cancel_challenge", p2.pk, "both asked us to", moderator.pk),
    ]
    assert [r.created_at for r in rows] == [then, then + timedelta(hours=1)]
    assert rows[0].details == {"ladder": "drako", "rung": 3} and rows[0].match_id is None
    assert rows[1].details == {"ladder": "drako", "challenge": challenge.pk}
    assert rows[1].match_id == match.pk
    codenames = set(
        new.get_model("auth", "Group")
        .objects.get(name="ladder readers")
        .permissions.values_list("codename", flat=True)
    )
    assert "view_moderationaction" in codenames
    assert "ladders_ladderaudit" not in connection.introspection.table_names()

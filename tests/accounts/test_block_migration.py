"""Blocking moves from the players app to the accounts app
(``accounts/migrations/0009_block.py``, ``players/migrations/0003_...``):
the table and its rows stay, and the content type follows the model, so the
permissions attached to it are the same rows."""

from __future__ import annotations

import pytest
from django.db import connection

from tests.migrations import migrate_to

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.usefixtures("latest_migrations_afterwards"),
]


BEFORE = [("players", "0002_rating_active"), ("accounts", "0008_name_readings")]
AFTER = [("players", "0003_block_moves_to_accounts")]


def test_blocks_and_their_permissions_stay_when_the_model_moves():
    old = migrate_to(BEFORE)
    User = old.get_model("auth", "User")
    Block = old.get_model("players", "Block")
    ContentType = old.get_model("contenttypes", "ContentType")
    Permission = old.get_model("auth", "Permission")
    alice = User.objects.create(username="alice")
    bob = User.objects.create(username="bob")
    Block.objects.create(blocker=alice, blocked=bob)
    ContentType.objects.filter(app_label="accounts", model="block").delete()
    content_type, _ = ContentType.objects.get_or_create(app_label="players", model="block")
    permission, _ = Permission.objects.get_or_create(
        content_type=content_type, codename="view_block", defaults={"name": "Can view block"}
    )

    new = migrate_to(AFTER)
    moved = new.get_model("accounts", "Block")
    assert list(moved.objects.values_list("blocker__username", "blocked__username")) == [
        ("alice", "bob")
    ]
    permission = new.get_model("auth", "Permission").objects.get(pk=permission.pk)
    assert permission.content_type.app_label == "accounts"
    assert "players_block" in connection.introspection.table_names()

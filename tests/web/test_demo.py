import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from games.engine import registry
from games.models import Match, MatchStatus

pytestmark = pytest.mark.django_db


def test_demo_data_is_created_once_and_logins_work(client):
    call_command("demo")
    call_command("demo")
    users = get_user_model().objects
    assert set(users.values_list("username", flat=True)) == {"alice", "bob", "carol", "mod"}
    # One match of every registered game, in play.
    assert sorted(
        Match.objects.filter(status=MatchStatus.ACTIVE).values_list("game_key", flat=True)
    ) == sorted(game.key for game in registry.all())
    assert Match.objects.filter(status=MatchStatus.OPEN).count() == 1
    mod = users.get(username="mod")
    assert mod.is_staff and not mod.is_superuser and mod.has_perm("games.moderate_match")
    assert client.login(username="alice", password="smoki-demo-2026")

import pytest
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group


@pytest.fixture
def moderator(db):
    user = get_user_model().objects.create_user(
        "mod", email="mod@example.com", password="pw", is_staff=True
    )
    user.groups.add(Group.objects.get(name="moderator"))
    return user


@pytest.fixture
def mod_client(client, moderator):
    client.force_login(moderator)
    return client

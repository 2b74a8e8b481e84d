import pytest


@pytest.fixture
def mod_client(client, moderator):
    client.force_login(moderator)
    return client

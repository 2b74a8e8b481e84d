import pytest

from friends import services


@pytest.fixture
def befriend():
    """Make two players friends: each follows the other."""

    def make(a, b):
        services.follow(a, b.username)
        services.follow(b, a.username)

    return make

"""Shared fixtures: users and Nogi matches built through the service layer.

The suite registers one game of its own, Hatchlings (``tests/hatchlings``),
which the site has never seen: the conformance kit runs over it like over
every catalog game, proving a new game needs no change to the platform.
"""

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.test.utils import override_settings
from django.utils import translation

from games.engine import registry
from games.lobby import services as lobby
from games.play import services
from tests.hatchlings import REGISTRATION as HATCHLINGS

# The test-only game's catalogue joins the site's, as a catalog game's does.
override_settings(LOCALE_PATHS=[HATCHLINGS.locale_dir, *settings.LOCALE_PATHS]).enable()

# Passwords are hashed with a fast hasher in tests, as Django advises: the
# site's PBKDF2 costs about a second a login on a loaded machine, which made
# the per-minute login limits' tests depend on how fast eleven logins run.
override_settings(PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]).enable()


@pytest.fixture(autouse=True)
def _site_language():
    """Each test starts in the site's default language.

    A request from a Polish or Czech player activates that language for the
    thread (as Django's LocaleMiddleware does), and the test client runs
    requests in the test's own thread: without this a later test on the same
    worker would read Polish refusals.
    """
    translation.deactivate()
    yield
    translation.deactivate()


@pytest.fixture(autouse=True)
def _fresh_cache():
    """Rate limits live in the cache: each test starts with none counted."""
    from django.core.cache import cache

    cache.clear()
    yield
    cache.clear()


@pytest.fixture
def make_user(db):
    def make(username: str):
        return get_user_model().objects.create_user(
            username=username, email=f"{username}@example.com", password="pw-" + username * 2
        )

    return make


@pytest.fixture
def moderator(db):
    """A staff member in the moderators' group (``accounts.roles``)."""
    from django.contrib.auth.models import Group

    user = get_user_model().objects.create_user(
        "mod", email="mod@example.com", password="pw", is_staff=True
    )
    user.groups.add(Group.objects.get(name="moderator"))
    return user


@pytest.fixture
def alice(make_user):
    return make_user("alice")


@pytest.fixture
def bob(make_user):
    return make_user("bob")


@pytest.fixture
def carol(make_user):
    return make_user("carol")


@pytest.fixture
def nogi():
    return registry.get("nogi")


@pytest.fixture
def started_match(alice, bob, carol):
    """A started three-player public Nogi match: alice seat 0, bob 1, carol 2."""
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    lobby.join_match(user=bob, match=match)
    lobby.join_match(user=carol, match=match)
    match.refresh_from_db()
    return match


def user_to_move(match, nogi):
    """The user whose turn it is in a match of humans."""
    seat_index = nogi.current_seats(match.state)[0]
    return match.seats.get(index=seat_index).user


def play_one(match, nogi, choose=0):
    """Play the ``choose``-th legal action for whoever is to move."""
    match.refresh_from_db()
    seat_index = nogi.current_seats(match.state)[0]
    seat = match.seats.get(index=seat_index)
    legal = nogi.legal_actions(match.state, seat_index)
    action = legal[choose % len(legal)]
    return services.submit_action(match, seat.user, action, match.version)


def inside_one_window(margin: float = 90, window: int = 3600) -> None:
    """Wait, if need be, until the current window of the limits' counters
    (``core.limits``: fixed windows of ``window`` seconds) has ``margin``
    seconds left, so hits a test counts never straddle two windows."""
    import time

    left = window - time.time() % window
    if left < margin:
        time.sleep(left + 1)


@pytest.fixture
def traveller():
    """Time stands still at ``tests.clock.START`` until the test moves it on."""
    import time_machine

    from tests.clock import START

    with time_machine.travel(START, tick=False) as traveller:
        yield traveller


def each_seat_moves(match):
    """Play first legal actions until every seat has moved at least once (a
    two-player match resigned or lost on time before that is aborted,
    ``services.abort_early``). Returns the match, fresh."""
    from games.models import MatchStatus

    game = registry.get(match.game_key)
    for _turn in range(200):
        match.refresh_from_db()
        seats = list(match.seats.order_by("index"))
        if match.status != MatchStatus.ACTIVE or not services.seats_yet_to_move(match, seats):
            return match
        index = game.current_seats(match.state)[0]
        if seats[index].played_by_bot:
            services.play_bot_turns(match.pk, 1)
            continue
        action = game.legal_actions(match.state, index)[0]
        services.submit_action(match, seats[index].user, action, match.version)
    raise AssertionError("some seat never came to move")


@pytest.fixture
def latest_migrations_afterwards():
    """For a test that moves the database back to old migrations: every app is
    put back at its latest migration afterwards, as the next test on the same
    worker expects it (``tests/migrations.py: migrate_to_latest``)."""
    from tests.migrations import migrate_to_latest

    yield
    migrate_to_latest()

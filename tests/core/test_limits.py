"""Limits that hold: atomic counters in the shared cache (every web process
counts the same hits), for logins, chat, reports, new matches and
invitations; and a player may refuse invitations from strangers."""

import os
import subprocess
import sys
import threading
import uuid

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import InvitationsFrom
from core import limits
from games.lobby import invitations
from games.lobby import services as lobby
from games.models import Invitation, Match, Report
from tests.conftest import inside_one_window

REDIS_URL = os.environ.get("SMOKI_REDIS_URL", "redis://127.0.0.1:6379/0")


def _redis_is_up() -> bool:
    import redis

    try:
        return bool(redis.Redis.from_url(REDIS_URL, socket_connect_timeout=1).ping())
    except redis.exceptions.RedisError:
        return False


def redis_caches(prefix=None):
    """Smoki's Redis cache with a prefix of its own, so runs never mix."""
    redis_cache = {
        "BACKEND": "config.cache.ResilientRedisCache",
        "LOCATION": REDIS_URL,
        "KEY_PREFIX": prefix or f"smoki-test-{uuid.uuid4().hex}",
    }
    return {
        "default": {**redis_cache, "OPTIONS": {"LOCAL_FALLBACK": True}},
        "sessions": redis_cache,
    }


def count_redis_trips(monkeypatch) -> list[str]:
    """Every round trip to Redis from now on, listed as it is made: a
    pipeline's as "transaction", a single command's by its name."""
    import redis

    trips = []
    pipeline_execute, command = redis.client.Pipeline.execute, redis.Redis.execute_command

    def counted_pipeline(self, *args, **kwargs):
        trips.append("transaction")
        return pipeline_execute(self, *args, **kwargs)

    def counted_command(self, *args, **kwargs):
        trips.append(args[0])
        return command(self, *args, **kwargs)

    monkeypatch.setattr(redis.client.Pipeline, "execute", counted_pipeline)
    monkeypatch.setattr(redis.Redis, "execute_command", counted_command)
    return trips


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


# -- The counters ------------------------------------------------------------------------

# Counters live in fixed windows: hits that straddle a window's edge are counted in
# two windows (limits.py says so). The tests use hour-long windows and start well
# inside one, so a run that happens to cross an edge cannot let extra hits through.
WINDOW = 3600


def _hit_together(limit, threads: int) -> int:
    barrier = threading.Barrier(threads)
    allowed = []

    def one():
        barrier.wait()
        allowed.append(limits.hit(limit, "someone"))

    workers = [threading.Thread(target=one) for _ in range(threads)]
    for worker in workers:
        worker.start()
    for worker in workers:
        worker.join()
    return sum(allowed)


def test_parallel_hits_never_slip_under_the_limit_in_local_memory():
    limit = limits.Limit("test-threads", 6, WINDOW)
    inside_one_window(window=WINDOW)
    assert _hit_together(limit, 30) == 6
    assert limits.hit(limits.Limit("test-threads", 6, WINDOW), "someone-else")


# Run by each process: Django set up from scratch on Redis, five hits.
HITS_IN_A_FRESH_PROCESS = """
import django
django.setup()
from core import limits
limit = limits.Limit("test-processes", 7, {window})
print(sum(limits.hit(limit, "someone") for _ in range(5)))
"""


@pytest.mark.redis
@pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}")
def test_processes_share_one_count_in_redis():
    """Three web processes, one limit of 7: exactly 7 of their 15 hits pass."""
    from tests.web.test_production import BASE_DIR

    # A database of its own keeps the counters apart from other runs.
    url = REDIS_URL.rsplit("/", 1)[0] + "/9"
    import redis

    redis.Redis.from_url(url).flushdb()
    inside_one_window(window=WINDOW)
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "CACHE_URL": url}
    processes = [
        subprocess.Popen(
            [sys.executable, "-c", HITS_IN_A_FRESH_PROCESS.format(window=WINDOW)],
            cwd=BASE_DIR,
            env=env,
            stdout=subprocess.PIPE,
            text=True,
        )
        for _ in range(3)
    ]
    allowed = [int(process.communicate(timeout=120)[0]) for process in processes]
    assert sum(allowed) == 7, allowed


@pytest.mark.redis
@pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}")
def test_parallel_hits_never_slip_under_the_limit_in_redis():
    with override_settings(CACHES=redis_caches()):
        inside_one_window(window=WINDOW)
        assert _hit_together(limits.Limit("test-redis", 6, WINDOW), 30) == 6


def test_the_redis_cache_keeps_one_client_for_its_pool():
    """Django builds a ``redis.Redis`` for every command (its reply table
    alone costs about 0.2 ms); the cache keeps one per connection pool.
    Building a client connects nowhere, so no Redis is needed."""
    from django.core.cache import caches

    with override_settings(CACHES=redis_caches()):
        backend = caches["default"]._cache
        first = backend.get_client("a")
        assert backend.get_client("b", write=True) is first
        assert first.connection_pool is backend._get_connection_pool(True)


@pytest.mark.redis
@pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}")
def test_a_hit_on_redis_is_one_round_trip_and_its_counter_expires(monkeypatch):
    """A hit is one command on Redis (the counting script), not Django's
    add, exists and incr (three round trips) nor a transaction."""
    import time

    import redis
    from django.core.cache import cache

    limit = limits.Limit("test-trips", 2, WINDOW)
    with override_settings(CACHES=redis_caches()):
        inside_one_window(window=WINDOW)
        limits.hit(limits.Limit("test-warm", 5, WINDOW), "first")  # the script loaded
        trips = count_redis_trips(monkeypatch)
        assert [limits.hit(limit, "someone") for _ in range(3)] == [True, True, False]
        assert trips == ["EVALSHA"] * 3
        window = int(time.time() // WINDOW)
        made = cache.make_and_validate_key(f"limit:test-trips:someone:{window}")
        ttl = redis.Redis.from_url(REDIS_URL).ttl(made)
        assert 0 < ttl <= WINDOW + 5


@pytest.mark.redis
@pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}")
def test_two_limits_count_in_one_round_trip_and_the_first_passed_is_named(monkeypatch):
    """An API request counts its address and its token together: one
    command for both counters, and the limit it took past its count is the
    one named."""
    wide = limits.Limit("test-wide", 3, WINDOW)
    narrow = limits.Limit("test-narrow", 1, WINDOW)
    with override_settings(CACHES=redis_caches()):
        inside_one_window(window=WINDOW)
        limits.hit(limits.Limit("test-warm", 5, WINDOW), "first")  # the script loaded
        trips = count_redis_trips(monkeypatch)
        answers = [limits.past_limit((wide, "here"), (narrow, "me")) for _ in range(4)]
        assert answers == [None, narrow, narrow, wide]
        assert trips == ["EVALSHA"] * 4, "both counters in one trip"


@pytest.mark.redis
@pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}")
def test_counting_reads_the_sessions_cache_in_the_same_round_trip(monkeypatch):
    """``past_limit_reading`` counts and reads another alias's keys on the
    same server in one command, giving the values as that alias's
    ``get_many`` would (pickled objects, numbers, missing keys left out)."""
    from django.core.cache import caches

    limit = limits.Limit("test-read", 2, WINDOW)
    with override_settings(CACHES=redis_caches()):
        inside_one_window(window=WINDOW)
        sessions = caches["sessions"]
        sessions.set("kept", {"a": (1, "two")}, 60)
        sessions.set("number", 7, 60)
        limits.hit(limits.Limit("test-warm", 5, WINDOW), "first")  # the script loaded
        trips = count_redis_trips(monkeypatch)
        answers = [
            limits.past_limit_reading([(limit, "me")], sessions, ["kept", "number", "absent"])
            for _ in range(3)
        ]
        expected = {"kept": {"a": (1, "two")}, "number": 7}
        assert answers == [(None, expected), (None, expected), (limit, expected)]
        assert trips == ["EVALSHA"] * 3
        assert sessions.get_many(["kept", "number", "absent"]) == expected


@pytest.mark.redis
@pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}")
def test_the_counting_script_is_loaded_again_into_a_server_that_forgot_it():
    """After Redis restarts (its scripts are not kept) the next hit loads
    the script again and counts as before."""
    import redis

    limit = limits.Limit("test-flush", 5, WINDOW)
    with override_settings(CACHES=redis_caches()):
        inside_one_window(window=WINDOW)
        assert limits.past_limit((limit, "me")) is None
        redis.Redis.from_url(REDIS_URL).script_flush()
        assert [limits.hit(limit, "me") for _ in range(5)] == [True, True, True, True, False]


def test_counting_reads_the_other_cache_in_local_memory_too():
    """Without Redis the counts come from the local cache and the values
    from the reader's ``get_many``, as on Redis."""
    from django.core.cache import caches

    limit = limits.Limit("test-local-read", 1, WINDOW)
    inside_one_window(window=WINDOW)
    caches["sessions"].set("kept-here", "copy", 60)
    first = limits.past_limit_reading(
        [(limit, uuid.uuid4().hex)], caches["sessions"], ["kept-here"]
    )
    assert first == (None, {"kept-here": "copy"})


# -- Chat, reports, matches, invitations --------------------------------------------------------


@pytest.mark.django_db
def test_reports_need_a_seat_and_are_limited_per_user(started_match, alice, make_user):
    url = reverse("match_report", args=[started_match.pk])
    stranger = client_for(make_user("dave"))
    response = stranger.post(url, {"reason": "the game is stuck"})
    assert response.status_code == 403 and not Report.objects.exists()
    client = client_for(alice)
    for i in range(limits.REPORT.count):
        assert client.post(url, {"reason": f"stuck {i}"}).status_code == 302
    response = client.post(url, {"reason": "one more"})
    assert response.status_code == 429
    assert "many reports" in response.content.decode()
    assert Report.objects.count() == limits.REPORT.count


@pytest.mark.django_db
def test_match_creation_is_limited_per_user(alice, bob):
    data = {"game": "nogi", "n_seats": 3, "visibility": "public", "time_per_move": 86400}
    client = client_for(alice)
    for _ in range(limits.MATCH.count):
        assert client.post(reverse("match_create"), data).status_code == 302
    response = client.post(reverse("match_create"), data)
    assert response.status_code == 429
    assert "many matches" in response.content.decode()
    assert Match.objects.count() == limits.MATCH.count
    assert client_for(bob).post(reverse("match_create"), data).status_code == 302


@pytest.mark.django_db
def test_invitations_to_one_player_are_limited(make_user):
    target = make_user("target")
    hosts = [make_user(f"host{i}") for i in range(limits.INVITE_RECEIVED.count + 1)]
    mail.outbox.clear()
    for host in hosts[:-1]:
        match = lobby.create_match(user=host, game_key="nogi", n_seats=3)
        invitations.invite_user(user=host, match=match, username="target")
    match = lobby.create_match(user=hosts[-1], game_key="nogi", n_seats=3)
    response = client_for(hosts[-1]).post(
        reverse("match_invite", args=[match.pk]), {"username": "target"}
    )
    assert response.status_code == 429
    assert Invitation.objects.filter(invited_user=target).count() == limits.INVITE_RECEIVED.count


@pytest.mark.django_db
def test_a_player_may_refuse_invitations_from_strangers(alice, bob, carol):
    carol.profile.invitations_from = InvitationsFrom.PLAYED_WITH
    carol.profile.save()
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=3)
    response = client_for(alice).post(
        reverse("match_invite", args=[match.pk]), {"username": "carol"}
    )
    assert response.status_code == 403
    assert (
        "This player is not accepting invitations from you right now." in response.content.decode()
    )
    assert not Invitation.objects.exists()
    # Once they have shared a match, the invitation goes through.
    earlier = lobby.create_match(user=bob, game_key="nogi", n_seats=3)
    lobby.join_match(user=alice, match=earlier)
    lobby.join_match(user=carol, match=earlier)
    invitations.invite_user(user=alice, match=match, username="carol")
    assert Invitation.objects.filter(match=match, invited_user=carol).exists()


@pytest.mark.django_db
def test_the_profile_offers_the_choice(alice):
    client = client_for(alice)
    page = client.get(reverse("profile")).content.decode()
    assert 'name="invitations_from"' in page
    data = {
        "display_name": "",
        "language": "en",
        "timezone": "UTC",
        "email_your_turn": "immediate",
        "email_reminder": "immediate",
        "email_match_events": "immediate",
        "email_invitation": "immediate",
        "invitations_from": "played_with",
        "reminder_hours": "24,2",
    }
    assert client.post(reverse("profile"), data).status_code == 302
    alice.profile.refresh_from_db()
    assert alice.profile.invitations_from == InvitationsFrom.PLAYED_WITH


# -- Logins --------------------------------------------------------------------------------------


LIMITED = "limited"


def _bad_login(client, login, **headers):
    """A wrong password: "refused" as usual, or LIMITED by allauth's limits
    (which answer with the form and its error, or 429 for other actions)."""
    response = client.post(
        reverse("account_login"), {"login": login, "password": "wrong"}, **headers
    )
    if response.status_code == 429 or "Too many failed login attempts" in response.content.decode():
        return LIMITED
    assert response.status_code == 200
    return "refused"


PER_ADDRESS = 20  # failed logins a minute from one address (any accounts)
PER_ACCOUNT = 5  # failed logins in 5 minutes for one account from one address


@pytest.mark.django_db
def test_one_accounts_failures_lock_out_neither_the_address_nor_the_account_elsewhere(
    make_user,
):
    """Before, 12 wrong passwords for one account refused every account at that
    address (10 a minute per address)."""
    make_user("victim")
    make_user("neighbour")
    address = {"REMOTE_ADDR": "192.0.2.10"}
    codes = [_bad_login(Client(**address), "victim") for _ in range(12)]
    assert codes[:PER_ACCOUNT] == ["refused"] * PER_ACCOUNT
    assert codes[PER_ACCOUNT:] == [LIMITED] * (12 - PER_ACCOUNT)
    # Another account at the same address is not locked out...
    assert _bad_login(Client(**address), "neighbour") == "refused"
    # ...and neither is the same account from another address.
    assert _bad_login(Client(REMOTE_ADDR="198.51.100.20"), "victim") == "refused"


@pytest.mark.django_db
def test_the_looser_per_address_limit_stops_one_address_trying_many_accounts(make_user):
    for i in range(PER_ADDRESS + 1):
        make_user(f"user{i}")
    address = {"REMOTE_ADDR": "192.0.2.11"}
    codes = [_bad_login(Client(**address), f"user{i}") for i in range(PER_ADDRESS + 1)]
    assert codes[:PER_ADDRESS] == ["refused"] * PER_ADDRESS and codes[-1] == LIMITED
    assert _bad_login(Client(REMOTE_ADDR="198.51.100.21"), "user0") == "refused"


@pytest.mark.django_db
def test_the_right_password_is_refused_only_where_the_account_is_locked(make_user):
    user = make_user("victim")
    user.set_password("dragons-fly-slowly")
    user.save()
    for _ in range(PER_ACCOUNT):
        _bad_login(Client(REMOTE_ADDR="192.0.2.12"), "victim")
    right = {"login": "victim", "password": "dragons-fly-slowly"}
    locked = Client(REMOTE_ADDR="192.0.2.12").post(reverse("account_login"), right)
    assert locked.status_code == 429 or "Too many failed login attempts" in locked.content.decode()
    elsewhere = Client(REMOTE_ADDR="198.51.100.22").post(reverse("account_login"), right)
    assert elsewhere.status_code == 302


# Failed logins for one account in 15 minutes, from every browser it never logged in from.
PER_ACCOUNT_ANYWHERE = 10


def _owner_with_a_browser(make_user, language="en"):
    """An account whose owner logged in once from their own browser: the
    browser (a fresh client holding only the device cookie that login set,
    as after logging out) and the right password."""
    from allauth.account.models import EmailAddress

    from accounts.adapter import DEVICE_COOKIE

    owner = make_user("victim")
    owner.set_password("dragons-fly-slowly")
    owner.save()
    EmailAddress.objects.create(user=owner, email=owner.email, verified=True, primary=True)
    owner.profile.language = language
    owner.profile.save()
    right = {"login": "victim", "password": "dragons-fly-slowly"}
    first = Client(REMOTE_ADDR="203.0.113.50")
    assert first.post(reverse("account_login"), right).status_code == 302
    browser = Client(REMOTE_ADDR="203.0.113.50")
    browser.cookies[DEVICE_COOKIE] = first.cookies[DEVICE_COOKIE].value
    return owner, browser, right


@pytest.mark.django_db
def test_guessing_one_password_from_many_addresses_stops_and_the_owner_is_told(
    make_user, mailoutbox
):
    """Before, 48 wrong passwords for one account from 12 addresses in a
    minute were all tried (4 an address, under the 5 per address)."""
    owner, browser, right = _owner_with_a_browser(make_user)
    mailoutbox.clear()
    codes = [
        _bad_login(Client(REMOTE_ADDR=f"192.0.2.{n}"), "victim")
        for n in range(12)
        for _ in range(4)
    ]
    assert codes[:PER_ACCOUNT_ANYWHERE] == ["refused"] * PER_ACCOUNT_ANYWHERE
    assert codes[PER_ACCOUNT_ANYWHERE:] == [LIMITED] * (48 - PER_ACCOUNT_ANYWHERE)
    # The email address instead of the username is the same account.
    assert _bad_login(Client(REMOTE_ADDR="192.0.2.99"), owner.email) == LIMITED
    # The right password from a new browser waits too...
    stranger = Client(REMOTE_ADDR="198.51.100.30").post(reverse("account_login"), right)
    assert "Too many failed login attempts" in stranger.content.decode()
    # ...but the owner's own browser logs in as usual.
    assert browser.post(reverse("account_login"), right).status_code == 302
    # The owner is told once, with what happened and what to do.
    assert [message.to for message in mailoutbox] == [[owner.email]]
    body = mailoutbox[0].body
    assert "failed logins in the last 24 hours: 10" in body
    assert "addresses they came from: 3" in body
    assert "/accounts/password/reset/" in body


@pytest.mark.django_db
def test_the_lockout_notice_speaks_the_owners_language(make_user, mailoutbox):
    owner, _browser, _right = _owner_with_a_browser(make_user, language="pl")
    for n in range(PER_ACCOUNT_ANYWHERE + 1):
        _bad_login(Client(REMOTE_ADDR=f"192.0.2.{n}"), "victim")
    (notice,) = mailoutbox
    assert notice.subject == "[Smoki] Nieudane logowania na twoje konto"
    assert "nieudane logowania w ostatnich 24 godzinach: 10" in notice.body


@pytest.mark.django_db
def test_a_forged_device_cookie_counts_for_nothing(make_user, mailoutbox):
    from accounts.adapter import DEVICE_COOKIE

    _owner, browser, right = _owner_with_a_browser(make_user)
    for n in range(PER_ACCOUNT_ANYWHERE):
        _bad_login(Client(REMOTE_ADDR=f"192.0.2.{n}"), "victim")
    forged = Client(REMOTE_ADDR="198.51.100.31")
    forged.cookies[DEVICE_COOKIE] = browser.cookies[DEVICE_COOKIE].value[:-2] + "xx"
    answer = forged.post(reverse("account_login"), right)
    assert "Too many failed login attempts" in answer.content.decode()


@pytest.mark.django_db
def test_behind_a_trusted_proxy_each_client_is_counted_apart(make_user):
    for i in range(PER_ADDRESS + 2):
        make_user(f"user{i}")
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    with override_settings(ALLAUTH_TRUSTED_PROXY_COUNT=1):
        # One client tries many accounts: it is stopped (20 a minute per address)...
        codes = [
            _bad_login(Client(), f"user{i}", HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy)
            for i in range(PER_ADDRESS + 1)
        ]
        assert codes[:PER_ADDRESS] == ["refused"] * PER_ADDRESS and codes[-1] == LIMITED
        # ...and another client behind the same proxy is not.
        assert (
            _bad_login(
                Client(), f"user{PER_ADDRESS + 1}", HTTP_X_FORWARDED_FOR="198.51.100.9", **proxy
            )
            == "refused"
        )


@pytest.mark.django_db
def test_without_the_proxy_setting_everyone_behind_it_shares_one_address(make_user):
    for i in range(PER_ADDRESS + 2):
        make_user(f"user{i}")
    proxy = {"REMOTE_ADDR": "10.0.0.1"}
    for i in range(PER_ADDRESS):
        _bad_login(Client(), f"user{i}", HTTP_X_FORWARDED_FOR="203.0.113.7", **proxy)
    assert (
        _bad_login(Client(), f"user{PER_ADDRESS + 1}", HTTP_X_FORWARDED_FOR="198.51.100.9", **proxy)
        == LIMITED
    )


def test_the_proxy_count_comes_from_the_environment():
    from tests.web.test_production import BASE_DIR

    code = "import django; django.setup(); from allauth import app_settings as s; print(s.TRUSTED_PROXY_COUNT)"
    result = subprocess.run(
        [sys.executable, "-c", code],
        cwd=BASE_DIR,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "TRUSTED_PROXY_COUNT": "2"},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert result.stdout.strip() == "2", result.stderr


@pytest.mark.django_db
@pytest.mark.redis
@pytest.mark.skipif(not _redis_is_up(), reason=f"needs Redis at {REDIS_URL}")
def test_failed_logins_are_counted_in_the_shared_cache(make_user):
    """Five wrong passwords from one address lock the account there for every
    web process: the counter is in Redis, and a fresh client (or a process
    that has never seen the failures) is refused the sixth try."""
    import redis

    make_user("victim")
    prefix = f"smoki-test-{uuid.uuid4().hex}"
    with override_settings(CACHES=redis_caches(prefix)):
        for _ in range(5):
            assert _bad_login(Client(REMOTE_ADDR="192.0.2.1"), "victim") == "refused"
        stored = redis.Redis.from_url(REDIS_URL).keys(f"{prefix}:*")
        assert stored, "the failures are counted in Redis"
        assert _bad_login(Client(REMOTE_ADDR="192.0.2.1"), "victim") == LIMITED
        assert get_user_model().objects.get(username="victim").is_active


def test_the_embedded_cache_keeps_a_busy_site_s_entries():
    """Sessions, preferences, log sentences and counts share the default cache;
    Django's local-memory cache would keep only 300 and drop a third of them
    at random, so counts could reset and every poll read its session again."""
    from django.conf import settings
    from django.core.cache import cache

    if "locmem" not in settings.CACHES["default"]["BACKEND"]:
        pytest.skip("CACHE_URL names a shared cache: its size is the server's")
    keys = [f"busy-{i}" for i in range(5_000)]
    cache.set_many(dict.fromkeys(keys, 1))
    assert len(cache.get_many(keys)) == len(keys)

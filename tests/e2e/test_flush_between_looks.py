"""A browser test's writes wait for a read under way on another connection
of the in-memory SQLite database (CI met two such reads: the flush failed and
the next test found the last one's players; a test's own update failed while
the live server read the same table)."""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test.testcases import TransactionTestCase


@contextmanager
def a_read_under_way() -> Iterator[None]:
    """Three players, and a read of them left under way on a connection of its
    own (another thread), as a live stream's look or the live server's has,
    for as long as the block runs (at most half a second)."""
    for name in ("ann", "ben", "cy"):
        get_user_model().objects.create_user(name)
    reading, done = threading.Event(), threading.Event()

    def read():
        cursor = connections["default"].cursor()
        try:
            cursor.execute("SELECT username FROM auth_user")
            cursor.fetchone()  # the statement stays under way: two rows are left
            reading.set()
            done.wait(0.5)
        finally:
            cursor.close()
            connections["default"].close()

    reader = threading.Thread(target=read)
    reader.start()
    assert reading.wait(5)
    try:
        yield
    finally:
        done.set()
        reader.join()


@pytest.mark.django_db(transaction=True)
def test_the_flush_waits_for_a_read_under_way_on_another_connection():
    with a_read_under_way():
        TransactionTestCase()._fixture_teardown()
    assert get_user_model().objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_test_s_own_write_waits_for_a_read_under_way_on_another_connection():
    """CI met a browser test's ``Profile.objects.update`` failing with
    "database table is locked" while the live server read the profiles."""
    with a_read_under_way():
        updated = get_user_model().objects.filter(username="ann").update(first_name="Ann")
    assert updated == 1
    assert get_user_model().objects.get(username="ann").first_name == "Ann"

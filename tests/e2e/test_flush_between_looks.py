"""A browser test's writes wait for a read under way on another connection
of the in-memory SQLite database (CI met two such reads: the flush failed and
the next test found the last one's players; a test's own update failed while
the live server read the same table)."""

from __future__ import annotations

import threading

import pytest
from django.contrib.auth import get_user_model
from django.db import connections
from django.test.testcases import TransactionTestCase


@pytest.mark.django_db(transaction=True)
def test_the_flush_waits_for_a_read_under_way_on_another_connection():
    for name in ("ann", "ben", "cy"):
        get_user_model().objects.create_user(name)
    reading, done = threading.Event(), threading.Event()

    def a_streams_look():
        # A thread of its own, so a connection of its own, as a stream's probe has.
        cursor = connections["default"].cursor()
        try:
            cursor.execute("SELECT username FROM auth_user")
            cursor.fetchone()  # the statement stays under way: two rows are left
            reading.set()
            done.wait(0.5)
        finally:
            cursor.close()
            connections["default"].close()

    reader = threading.Thread(target=a_streams_look)
    reader.start()
    assert reading.wait(5)
    try:
        TransactionTestCase()._fixture_teardown()
    finally:
        done.set()
        reader.join()
    assert get_user_model().objects.count() == 0


@pytest.mark.django_db(transaction=True)
def test_a_test_s_own_write_waits_for_a_read_under_way_on_another_connection():
    """CI met a browser test's ``Profile.objects.update`` failing with
    "database table is locked" while the live server read the profiles."""
    for name in ("ann", "ben", "cy"):
        get_user_model().objects.create_user(name)
    reading, done = threading.Event(), threading.Event()

    def the_server_s_read():
        cursor = connections["default"].cursor()
        try:
            cursor.execute("SELECT username FROM auth_user")
            cursor.fetchone()  # under way: two rows are left
            reading.set()
            done.wait(0.5)
        finally:
            cursor.close()
            connections["default"].close()

    reader = threading.Thread(target=the_server_s_read)
    reader.start()
    assert reading.wait(5)
    try:
        updated = get_user_model().objects.filter(username="ann").update(first_name="Ann")
    finally:
        done.set()
        reader.join()
    assert updated == 1
    assert get_user_model().objects.get(username="ann").first_name == "Ann"

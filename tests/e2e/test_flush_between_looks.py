"""The test database is emptied after a browser test even while a live
stream left behind by the closed page is reading it (CI met one such read:
the flush failed and the next test found the last one's players)."""

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

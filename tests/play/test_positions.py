"""Positions kept in the shared cache every tenth log entry (games.play.positions),
from which a replay step and the match page's highlights start."""

from __future__ import annotations

import pytest

from games.play import positions
from tests.conftest import play_one

pytestmark = pytest.mark.django_db


def test_a_move_keeps_every_tenth_position(started_match, nogi, django_capture_on_commit_callbacks):
    match = started_match
    for _i in range(10):
        with django_capture_on_commit_callbacks(execute=True):
            play_one(match, nogi, choose=_i)
    match.refresh_from_db()
    assert match.version == 10
    assert positions.kept(match, 10) == match.state
    assert positions.kept(match, 9) is None

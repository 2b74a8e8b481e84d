"""A sentence whose moment ends with a full stop of its own (English writes
"6 p.m.") ends with that one: the English email says "before …, 6 p.m.",
never "6 p.m..". An ellipsis stays."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from games.correspondence import compose
from games.lobby import services as lobby
from games.models import Match, Notification, NotificationKind
from games.panel.formats import one_full_stop

pytestmark = pytest.mark.django_db

SIX_PM = datetime(2026, 12, 5, 18, 0, tzinfo=UTC)


def test_one_full_stop():
    assert one_full_stop("Please move before Dec. 5, 2026, 6 p.m..") == (
        "Please move before Dec. 5, 2026, 6 p.m."
    )
    assert one_full_stop("Answer by 6 p.m.. Accept: …") == "Answer by 6 p.m. Accept: …"
    assert one_full_stop("Wait...") == "Wait..."
    assert one_full_stop("Ruch do 5.12.2026 18:00.") == "Ruch do 5.12.2026 18:00."


@pytest.mark.parametrize("kind", [NotificationKind.YOUR_TURN, NotificationKind.REMINDER])
def test_the_english_email_ends_a_deadline_with_one_full_stop(alice, bob, kind):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    Match.objects.filter(pk=match.pk).update(deadline=SIX_PM)
    row = Notification.objects.get(match=match, user=alice, kind=NotificationKind.YOUR_TURN)
    row.kind = kind
    body = compose.build_email(row).body
    assert "6 p.m." in body
    assert "p.m.." not in body

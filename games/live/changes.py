"""Announce a match's committed changes to its open pages.

Every write that changes what a match's page shows changes its stamp
(``Match.stamp``: version, status, deadline, undo request, last touch).
The move path (``games.play.services.submit_action``, for players, bots,
the clock's timeouts and moderators alike) announces its own UPDATE, which
bypasses ``save``; every other write of a match row saves it, and the
receiver below announces those (a join, a resignation, an undo request, a
chat message's touch, a moderator's action). The message is the version
alone: what changed is read by each page through its own panel."""

from __future__ import annotations

from django.db.models.signals import post_save

from streams import bus


def topic(match_id: int) -> str:
    return f"match:{match_id}"


def changed(match_id: int, version: int) -> None:
    """Announce the match's new version after the caller's transaction commits."""
    bus.publish_on_commit(topic(match_id), str(version))


def _saved(sender, instance, **kwargs) -> None:
    changed(instance.pk, instance.version)


def connect() -> None:
    """Announce every saved match (called once, from the games app's ``ready``)."""
    from games.models import Match

    post_save.connect(_saved, sender=Match, dispatch_uid="games.live.changes")

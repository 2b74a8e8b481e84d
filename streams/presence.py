"""Who has a stream open: a mark in the shared cache per (topic, member) that
a connected stream renews every heartbeat and that lapses on its own a few
seconds after the stream is gone (a crashed process leaves no stale mark
beyond ``seconds``). No database write, whatever the number of pages."""

from __future__ import annotations

from django.core.cache import cache


def _key(topic: str, member) -> str:
    return f"streams:present:{topic}:{member}"


async def mark(topic: str, member, seconds: int) -> None:
    await cache.aset(_key(topic, member), 1, timeout=seconds)


async def clear(topic: str, member) -> None:
    await cache.adelete(_key(topic, member))


async def present(topic: str, members) -> set:
    """Those of ``members`` with a mark under ``topic`` now."""
    members = list(members)
    found = await cache.aget_many([_key(topic, member) for member in members])
    return {member for member in members if _key(topic, member) in found}


def present_now(topic: str, members) -> set:
    """``present`` for synchronous callers (a page drawn by a view)."""
    members = list(members)
    found = cache.get_many([_key(topic, member) for member in members])
    return {member for member in members if _key(topic, member) in found}

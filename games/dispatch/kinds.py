"""What each kind of notification is: the email preference that governs it,
its name, its words and where it leads.

The kinds about a match are the games' own (``NotificationKind``), worded by
``games.correspondence.compose``. An app built on matches (tournaments,
ladders) registers its own kind of news when it starts, with the function
that words a row of it and the one that gives its page, as a game registers
with the engine; so the correspondence machinery names no competition. A
row of news has no match: what it is about is in ``Notification.about``,
and it is written by ``notifications.queue_news``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from django.conf import settings
from django.urls import reverse

from accounts.models import EMAIL_PREFERENCES
from games.models import Notification, NotificationKind

#: Which profile preference governs each kind about a match.
MATCH_PREFERENCE = {
    NotificationKind.YOUR_TURN: "email_your_turn",
    NotificationKind.REMINDER: "email_reminder",
    NotificationKind.TIMED_OUT: "email_reminder",
    NotificationKind.MATCH_STARTED: "email_match_events",
    NotificationKind.MATCH_FINISHED: "email_match_events",
    NotificationKind.INVITATION: "email_invitation",
    NotificationKind.MODERATION: "email_match_events",
    # Asked while it is the judge's turn to move: as urgent as "your turn".
    NotificationKind.UNDO_REQUEST: "email_your_turn",
    # "@name" in the match's chat (games.play.chat).
    NotificationKind.MENTION: "email_mentions",
}


@dataclass(frozen=True)
class NewsKind:
    """A kind of news an app registers (``register_news``).

    ``words(row)`` gives the row's ``subject`` and ``lines`` in the active
    language (translated when the email or the bell is drawn, not when the
    row is written); ``page(about)`` the path of the page it leads to."""

    kind: str
    label: Callable[[], str]
    preference: str
    words: Callable[[Notification], dict]
    page: Callable[[dict], str]


_news: dict[str, NewsKind] = {}


def register_news(
    kind: str,
    *,
    label: Callable[[], str],
    preference: str,
    words: Callable[[Notification], dict],
    page: Callable[[dict], str],
) -> None:
    """Make ``kind`` a kind of news (called from an app's ``ready``; a second
    call with the same kind replaces the first, so a reload is harmless)."""
    if kind in MATCH_PREFERENCE:
        raise ValueError(f"{kind!r} is a kind about a match")
    if len(kind) > Notification._meta.get_field("kind").max_length:
        raise ValueError(f"{kind!r} is longer than a notification's kind may be")
    if preference not in EMAIL_PREFERENCES:
        raise ValueError(f"{preference!r} is not an email preference of the profile")
    _news[kind] = NewsKind(kind, label, preference, words, page)


#: Functions ``(match) -> [sentence, …]`` an app registers to say, in the
#: email about a match's start, what the match is part of (a tournament's
#: round): the app's own news of that moment is then not emailed apart.
_start_headlines: list[Callable[[object], list[str]]] = []


def register_start_headline(provider: Callable[[object], list[str]]) -> None:
    """Add ``provider`` (called from an app's ``ready``; the same function
    twice is kept once)."""
    if provider not in _start_headlines:
        _start_headlines.append(provider)


def start_headline(match) -> list[str]:
    """What the registered apps say of ``match``'s start, in the active language."""
    return [str(line) for provider in _start_headlines for line in provider(match)]


def is_news(kind: str) -> bool:
    return kind in _news


def preference_of(kind: str) -> str:
    """The profile field that says how this kind is delivered."""
    if kind in MATCH_PREFERENCE:
        return MATCH_PREFERENCE[kind]
    return _news[kind].preference


def event_of(kind: str) -> str:
    """The row of the preferences grid a kind belongs to (``accounts.models.EVENTS``):
    its email preference without ``email_``, so every channel groups kinds
    as the email does."""
    return preference_of(kind).removeprefix("email_")


def label_of(kind: str) -> str:
    """A kind's name, in the active language (the moderators' desk)."""
    if kind in _news:
        return str(_news[kind].label())
    try:
        return str(NotificationKind(kind).label)
    except ValueError:
        return kind


def absolute(path: str) -> str:
    return settings.SITE_URL.rstrip("/") + path


def link_of(row: Notification) -> str:
    """Where the bell's entry for ``row`` leads: its match, or for news the
    page its kind names."""
    if row.match_id is None:
        return _news[row.kind].page(row.about or {})
    return reverse("match_detail", args=[row.match_id])


def news_context(row: Notification) -> dict:
    """Subject, sentences and link of a row of news, in the active language."""
    return {**_news[row.kind].words(row), "match_url": absolute(link_of(row))}


def news_kinds() -> list[tuple[str, str]]:
    """The registered kinds of news as (kind, name) pairs, in the active language."""
    return [(kind, str(news.label())) for kind, news in _news.items()]

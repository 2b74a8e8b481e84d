"""Every page a player can reach, in Polish and in Czech, has no English left in it.

The English vocabulary is the site's own: every word of the English originals
(msgids) of the site's, the games' and allauth's catalogues, less the words
the language's own translations use (Polish and Czech use "bot", "e-mail",
"a", "to"...) and an allow list of proper names. The pages are drawn for a
player whose profile speaks the language (a match of every game in play, at
their turn and at the other's, with its replay and printable record, a
finished one with its banner, log, replay and record, the archive, one
gathering players, the new-match form, How to play, the profile, allauth's
pages) and for a visitor whose browser asks for it (login, sign-up, password
reset). The text a person reads or hears is checked: the page's words and
its titles, labels, placeholders and alternative texts, not scripts, styles
or code.
"""

from __future__ import annotations

import re
from functools import cache
from html.parser import HTMLParser
from pathlib import Path
from unittest import mock

import allauth
import pytest
from allauth.account.models import EmailAddress
from django.contrib.auth import get_user_model
from django.test import Client

from games.engine import registry
from games.lobby import invitations
from games.lobby import services as lobby
from games.play import reliability, safety, services
from ladders import services as ladders
from tests.conformance.kit import bot_choice
from tests.web.test_i18n import CATALOGUES, parse_po, po_path

pytestmark = pytest.mark.django_db

LANGUAGES = ["pl", "cs"]
ALLAUTH_LOCALE = Path(allauth.__file__).parent / "locale"
PASSWORD = "Hasło-Heslo-2026!"
# Proper names and marks that are the same in every language: single words,
# and names of several words taken out of the text before it is read.
ALLOW = {"smoki", "nogi", "drakon", "drako", "galakta", "sha", "utc", "hatchlings"}
PROPER_NAMES = {
    "pl": ["Drako: Dragon & Dwarves", "game-icons.net"],
    "cs": ["Drako: Dragon & Dwarves", "game-icons.net"],
}
WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")
PLACEHOLDERS = re.compile(r"%\(\w+\)[sdif]|\{[{%].*?[%}]\}|<[^>]+>|&\w+;")


def words(text: str) -> set[str]:
    return {w.lower().strip("'’") for w in WORD.findall(PLACEHOLDERS.sub(" ", text))}


@cache
def english_vocabulary(language: str) -> frozenset[str]:
    """Words of the English originals that the language's translations never use."""
    english: set[str] = set()
    translated: set[str] = set()
    for path in [*(po_path(language, c) for c in CATALOGUES), po_path(language, ALLAUTH_LOCALE)]:
        for entry in parse_po(path)[1:]:
            english |= words(entry.msgid) | words(entry.msgid_plural or "")
            for text in entry.msgstr.values():
                translated |= words(text)
    return frozenset(w for w in english - translated - ALLOW if len(w) > 2)


class Readable(HTMLParser):
    """The text a person reads or hears: data and the readable attributes,
    outside scripts, styles, code, the time zone picker's place names and
    what is marked ``translate="no"``."""

    SKIP = {"script", "style", "code", "select", "textarea"}
    ATTRIBUTES = {"title", "aria-label", "placeholder", "alt", "data-your-turn"}

    def __init__(self):
        super().__init__()
        self.skipping: list[str] = []
        self.parts: list[str] = []

    def handle_starttag(self, tag, attrs):
        attributes = dict(attrs)
        if tag in self.SKIP or attributes.get("translate") == "no":
            # translate="no": a name kept as it is (the icons' names on /about/).
            self.skipping.append(tag)
        for name in self.ATTRIBUTES & attributes.keys():
            self.parts.append(attributes[name] or "")
        if tag == "input" and attributes.get("type") in ("submit", "button"):
            self.parts.append(attributes.get("value") or "")

    def handle_endtag(self, tag):
        if self.skipping and self.skipping[-1] == tag:
            self.skipping.pop()

    def handle_data(self, data):
        if not self.skipping:
            self.parts.append(data)


def english_left(html: str, language: str, names: set[str]) -> list[str]:
    reader = Readable()
    reader.feed(html)
    found = []
    vocabulary = english_vocabulary(language)
    for part in reader.parts:
        for name in PROPER_NAMES[language]:
            part = part.replace(name, " ")
        for word in words(part) & vocabulary - names:
            found.append(f"{word!r} in {part.strip()[:120]!r}")
    return found


def player(username: str, language: str):
    user = get_user_model().objects.create_user(username, f"{username}@example.com", PASSWORD)
    EmailAddress.objects.create(user=user, email=user.email, verified=True, primary=True)
    user.profile.language = language
    user.profile.save()
    return user


def logged_in(user, browser_language="en") -> Client:
    client = Client(headers={"accept-language": browser_language})
    client.force_login(user)
    return client


def pages_of_a_player(language: str):
    """(client, path) of every page a player reaches, and the names on them.

    One player sits at a match of every kind, more at once than a newcomer's
    cap allows (``games.play.reliability``): the cap is lifted meanwhile."""
    with mock.patch.object(reliability, "BASE_LIMIT", reliability.MAX_LIMIT):
        return _pages_of_a_player(language)


def _pages_of_a_player(language: str):
    me, other = player(f"gracz{language}", language), player(f"hrac{language}", language)
    mine, theirs = logged_in(me), logged_in(other)
    pages = [
        "/",
        "/watch/",
        "/about/",
        "/profile/",
        "/notifications/",
        "/matches/new/",
        "/accounts/email/",
        "/accounts/password/change/",
    ]
    visits = [(mine, path) for path in pages]
    for game in registry.all():
        visits.append((mine, f"/matches/new/?game={game.key}"))
        visits.append((mine, f"/games/{game.key}/how-to-play/"))
        match = lobby.create_match(user=me, game_key=game.key, n_seats=2)
        lobby.join_match(user=other, match=match)
        match.refresh_from_db()
        url = f"/m/{match.pk}/"
        visits += [(mine, url), (theirs, url), (mine, f"/m/{match.pk}/log/")]
        # A second match two moves on: its replay (the setup with the later
        # moves listed, a step that changed the board) and its record.
        played = lobby.create_match(user=me, game_key=game.key, n_seats=2)
        lobby.join_match(user=other, match=played)
        for step in range(2):
            played.refresh_from_db()
            seat = game.current_seats(played.state)[0]
            action = bot_choice(game.key, played.state, seat, "heuristic", f"e{step}")
            services.submit_action(
                played, played.seats.get(index=seat).user, action, played.version
            )
        replay = f"/m/{played.pk}/replay/"
        visits += [
            (mine, f"{replay}?at=0"),
            (theirs, f"{replay}?at=1"),
            (mine, f"{replay}?at=2"),
            (theirs, f"/m/{played.pk}/print/"),
        ]
    # A finished match: the banner, the log, the fairness check, its replay
    # through a seat's eyes and the public's, and its record; the archive.
    finished = lobby.create_match(user=me, game_key="drako", n_seats=2)
    lobby.join_match(user=other, match=finished)
    safety.resign(user=other, match=finished)
    for path in ("", "log/", "verify/", "replay/?as=0", "replay/?at=0&as=public", "print/"):
        visits += [(mine, f"/m/{finished.pk}/{path}")]
    visits += [(mine, "/archive/"), (theirs, f"/archive/?game=drako&player={me.username}")]
    # A match gathering players, seen by its creator and by someone invited.
    gathering = lobby.create_match(user=me, game_key="nogi", n_seats=3)
    invitations.invite_user(user=me, match=gathering, username=other.username)
    visits += [(mine, f"/m/{gathering.pk}/"), (theirs, f"/m/{gathering.pk}/"), (theirs, "/")]
    visits.append((theirs, "/notifications/"))
    # A ladder: a declined challenge among the results, an open one to answer.
    for user in (me, other):
        ladders.join(user, "drako")
    ladders.decline(me, ladders.challenge(other, "drako", me.username).pk)
    ladders.challenge(me, "drako", other.username)
    visits += [(mine, "/ladders/"), (theirs, "/ladders/drako/"), (mine, "/ladders/drako/")]
    visits.append((mine, f"/players/{me.username}/"))
    # Tournaments: the list, the form, one open for entry and a round robin
    # under way with a result (standings, crosstable, a round's tables).
    from datetime import timedelta

    from django.utils import timezone

    from tournaments import services as tournaments

    start = timezone.now() + timedelta(days=1)
    common = {"game_key": "nogi", "table_size": 2, "starts_at": start, "min_entrants": 2}
    waiting = tournaments.create_tournament(
        user=me, name="Smoki", format="swiss", rounds=3, max_entrants=8, **common
    )
    running = tournaments.create_tournament(
        user=other, name="Smoki", format="round_robin", max_entrants=8, **common
    )
    tournaments.join(user=me, tournament=running)
    tournaments.start(running.pk, now=start)
    played = running.round_set.get().placements.exclude(match=None).first().match
    safety.resign(user=other, match=played)
    tournaments.advance(running.pk)
    for path in ("/tournaments/", "/tournaments/new/", "/tournaments/new/?game=nogi"):
        visits.append((mine, path))
    for tournament in (waiting, running):
        visits += [
            (mine, f"/tournaments/{tournament.pk}/"),
            (theirs, f"/tournaments/{tournament.pk}/"),
        ]
    # Quick match: the form for one game and for any game, a request
    # waiting (the page and the lobby), one seated with its news in the bell.
    from matchmaking import services as quick_match

    day = timedelta(days=1)
    ask = {"counts": [2, 3], "clock_min": day, "clock_max": 7 * day, "window": 200}
    quick_match.request(me, game_key="seven_dragons", **ask)
    quick_match.request(other, game_key="seven_dragons", **ask)
    quick_match.match_waiting()
    quick_match.request(me, game_key="nogi", **ask)
    for path in ("/quick-match/", "/quick-match/?game=drakon", "/quick-match/?game=any", "/"):
        visits.append((mine, path))
    visits += [(mine, "/notifications/"), (mine, f"/players/{me.username}/")]
    # The notification settings, and what was sent (with a mention among it).
    from games.play import chat

    chat.post_message(other, played, f"@{me.username} gg")
    visits += [(mine, "/profile/notifications/"), (mine, "/notifications/sent/")]
    return visits, {me.username, other.username}


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_on_the_pages_a_player_reaches(language):
    visits, names = pages_of_a_player(language)
    problems = []
    for client, path in visits:
        response = client.get(path)
        assert response.status_code == 200, (path, response.status_code)
        html = response.content.decode()
        assert f'<html lang="{language}">' in html, path
        problems += [f"{path}: {found}" for found in english_left(html, language, names)]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_english_on_the_pages_before_logging_in(language):
    visitor = Client(headers={"accept-language": language})
    problems = []
    for path in (
        "/",
        "/watch/",
        "/accounts/login/",
        "/accounts/signup/",
        "/accounts/password/reset/",
        "/archive/",
        "/quick-match/",
    ):
        html = visitor.get(path).content.decode()
        assert f'<html lang="{language}">' in html, path
        problems += [f"{path}: {found}" for found in english_left(html, language, set())]
    assert problems == [], "\n".join(problems)


@pytest.mark.parametrize("language", LANGUAGES)
def test_allauths_message_after_logging_in_is_in_the_players_language(language):
    """The login request comes from a browser asking for English; the player's
    profile says Polish or Czech, and so do the page and allauth's message."""
    user = player(f"gracz{language}", language)
    client = Client(headers={"accept-language": "en"})
    response = client.post(
        "/accounts/login/", {"login": user.username, "password": PASSWORD}, follow=True
    )
    html = response.content.decode()
    assert f'<html lang="{language}">' in html
    messages = re.search(r'<ul class="messages">(.*?)</ul>', html, re.S).group(1)
    expected = {"pl": "Zalogowano jako", "cs": "Úspěšně přihlášen jako"}[language]
    assert expected in messages and "Successfully signed in" not in messages
    assert english_left(html, language, {user.username}) == []


@pytest.mark.parametrize("language", ["en", *LANGUAGES])
def test_the_profiles_labels_start_with_a_capital(language):
    """The time zone's label read "time zone:" while every other began with a capital."""
    user = player(f"gracz{language}", language)
    html = logged_in(user).get("/profile/").content.decode()
    labels = re.findall(r'<label for="id_[^"]+"[^>]*>\s*([^<]+)', html)
    assert len(labels) > 5 and "id_timezone" in html
    assert [label for label in labels if not label[0].isupper()] == []

"""An htmx move's answer leaves to the page the parts of the panel no move
changes (issue 29: the answer's cost).

The panel tells what it shows of the match (``hx-headers``, header
``Smoki-Panel``: its stamp and language, ``build.panel_shown``). When the
page that posts a move shows the match as it was just before it, the answer
draws the title, How to play, the fair dice and options line and the chat as
empty placeholders with their ids and ``hx-preserve``: htmx puts the page's
own elements in their place. Whatever the page shows after such an answer is
what a freshly drawn panel shows; every other case gets the whole panel.
"""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import Profile
from accounts.selectors import forget_preferences
from games.engine import registry
from games.lobby import services as lobby
from games.models import Match, MatchStatus
from games.panel import build
from games.play import chat, services

pytestmark = pytest.mark.django_db

#: The parts of the panel a page keeps across a move (their ids).
KEPT = ("match-title", "how-to-play", "fairness", "chat")
PLACEHOLDER = re.compile(r'<(\w+) [^>]*?id="([\w-]+)" hx-preserve="true"></\1>')
OOB_LINES = re.compile(r'<ol id="move-log-list" hx-swap-oob="afterbegin">(.*?)</ol>', re.S)
CSRF = re.compile(r'(name="csrfmiddlewaretoken" value=")[^"]*"')


def element(html: str, ident: str) -> str:
    """The element of ``html`` with id ``ident``, from its start tag to its end tag."""
    start = re.search(rf'<(\w+)\b[^>]*\sid="{re.escape(ident)}"[^>]*>', html)
    assert start, f"no element #{ident}"
    tag, depth = start.group(1), 0
    for found in re.finditer(rf"<(/?){tag}\b[^>]*>", html[start.start() :]):
        depth += -1 if found.group(1) else 1
        if depth == 0:
            return html[start.start() : start.start() + found.end()]
    raise AssertionError(f"#{ident} is not closed")


def as_the_page_shows(page: str, answer: str) -> str:
    """The panel a page shows once htmx has swapped ``answer`` in (``hx-swap``
    outerHTML on ``#match-panel``): each ``hx-preserve`` element replaced by the
    page's own of that id, then the out-of-band log lines put on top of the kept
    list (``afterbegin``)."""
    added = OOB_LINES.findall(answer)
    panel = element(OOB_LINES.sub("", answer), "match-panel")
    for found in reversed(list(re.finditer(r'<\w+ [^>]*?id="([\w-]+)"[^>]*hx-preserve', panel))):
        placeholder = element(panel[found.start() :], found.group(1))
        kept = element(page, found.group(1))
        panel = panel[: found.start()] + kept + panel[found.start() + len(placeholder) :]
    if added:
        start = re.search(r'<ol [^>]*id="move-log-list"[^>]*>', panel)
        panel = panel[: start.end()] + added[0] + panel[start.end() :]
    return panel


def normalised(html: str) -> str:
    """Without what differs between two drawings of the same panel: the CSRF
    field's mask (new on each drawing) and the white space between tags."""
    return re.sub(r">\s+<", "><", CSRF.sub(r"\1…", html)).strip()


def shown_by(page: str) -> dict[str, str]:
    """The headers the page's panel sends with each htmx request (``hx-headers``)."""
    panel = re.search(r'<div id="match-panel"[^>]*>', page).group(0)
    return json.loads(re.search(r"hx-headers='([^']*)'", panel).group(1))


def _start(key: str, make_user, prefix: str = "keep") -> tuple[Match, list]:
    game = registry.get(key)
    n = game.demo_setup()[0]
    users = [make_user(f"{prefix}-{key}-{i}") for i in range(n)]
    match = lobby.create_match(user=users[0], game_key=key, n_seats=n)
    for user in users[1:]:
        lobby.join_match(user=user, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    return match, users


def _mover(match: Match, users) -> tuple[Client, object, dict]:
    game = registry.get(match.game_key)
    seat = game.current_seats(match.state)[0]
    user = match.seats.get(index=seat).user
    client = Client()
    client.force_login(user)
    action = game.legal_actions(match.state, seat)[0]
    return client, user, {"action": json.dumps(action), "version": match.version}


def _post(client: Client, match: Match, data: dict, headers: dict[str, str]):
    response = client.post(
        reverse("match_act", args=[match.pk]), data, headers={"HX-Request": "true", **headers}
    )
    assert response.status_code == 200, response.content.decode()[:500]
    return response.content.decode()


def _fresh(client: Client, match: Match) -> str:
    """The panel as a poll draws it now, whole."""
    response = client.get(reverse("match_panel", args=[match.pk]), headers={"HX-Request": "true"})
    assert response.status_code == 200
    return response.content.decode()


def _kept_parts(answer: str) -> set[str]:
    return {ident for _tag, ident in PLACEHOLDER.findall(answer)} & set(KEPT)


def _chatted(match: Match, users) -> None:
    """A chat with a line from every player (each sees the others' with a report form)."""
    for i, user in enumerate(users):
        chat.post_message(user, match, f"Line {i} from the chat <b>&</b>")
    match.refresh_from_db()


@pytest.mark.parametrize("key", [game.key for game in registry.all()])
def test_the_page_after_the_answer_shows_what_a_freshly_drawn_panel_shows(key, make_user):
    match, users = _start(key, make_user)
    _chatted(match, users)
    client, _user, data = _mover(match, users)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    answer = _post(client, match, data, shown_by(page))
    match.refresh_from_db()
    assert match.status == MatchStatus.ACTIVE
    assert _kept_parts(answer) == set(KEPT), "the page keeps what no move changes"
    assert "Line 0 from the chat" not in answer
    assert "Seed SHA-256" not in answer
    fresh = _fresh(client, match)
    assert "Line 0 from the chat" in fresh and not _kept_parts(fresh)
    assert normalised(as_the_page_shows(page, answer)) == normalised(fresh)


def test_move_after_move_the_pages_keep_showing_what_a_fresh_panel_shows(make_user):
    """Each player's page as htmx leaves it: the mover's after its answer, the
    others' after their poll brought the whole panel; each posts its next move
    from what it shows, the kept parts taken from answers before."""
    match, users = _start("nogi", make_user, "again")
    _chatted(match, users)
    clients, shows = {}, {}
    for user in users:
        clients[user.pk] = Client()
        clients[user.pk].force_login(user)
        shows[user.pk] = clients[user.pk].get(reverse("match_detail", args=[match.pk]))
        shows[user.pk] = shows[user.pk].content.decode()
    for _move in range(8):
        match.refresh_from_db()
        _client, mover, data = _mover(match, users)
        client = clients[mover.pk]
        answer = _post(client, match, data, shown_by(shows[mover.pk]))
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        assert _kept_parts(answer) == set(KEPT)
        shows[mover.pk] = as_the_page_shows(shows[mover.pk], answer)
        assert normalised(shows[mover.pk]) == normalised(_fresh(client, match))
        for user in users:
            if user.pk != mover.pk:
                shows[user.pk] = _fresh(clients[user.pk], match)


def _whole(answer: str) -> bool:
    """The answer draws every part itself: no placeholder, the chat and fair dice drawn."""
    return not _kept_parts(answer) and "Seed SHA-256" in answer and 'id="chat"' in answer


@pytest.mark.parametrize("header", [None, "", "forged", "0-active-0-0-0:en", "stale-version"])
def test_any_other_header_draws_the_whole_panel(make_user, header):
    match, users = _start("nogi", make_user, "other")
    client, _user, data = _mover(match, users)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    headers = shown_by(page)
    if header is None:
        del headers[build.PANEL_SHOWN_HEADER]
    elif header == "stale-version":
        version, rest = headers[build.PANEL_SHOWN_HEADER].split("-", 1)
        headers[build.PANEL_SHOWN_HEADER] = f"{int(version) - 1}-{rest}"
    else:
        headers[build.PANEL_SHOWN_HEADER] = header
    assert _whole(_post(client, match, data, headers))


def test_a_page_behind_a_chat_message_gets_the_whole_panel_with_it(make_user):
    match, users = _start("nogi", make_user, "behind")
    client, user, data = _mover(match, users)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    other = next(u for u in users if u.pk != user.pk)
    chat.post_message(other, match, "Written while the page was open")
    answer = _post(client, match, data, shown_by(page))
    assert _whole(answer)
    assert "Written while the page was open" in answer
    match.refresh_from_db()
    assert normalised(as_the_page_shows(page, answer)) == normalised(_fresh(client, match))


def test_a_page_in_another_language_gets_the_whole_panel(make_user):
    match, users = _start("nogi", make_user, "language")
    client, user, data = _mover(match, users)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    Profile.objects.filter(user=user).update(language="pl")
    forget_preferences(user.pk)
    answer = _post(client, match, data, shown_by(page))
    assert not _kept_parts(answer)
    assert "Czat" in answer  # the chat drawn again, in Polish


def test_a_move_that_ends_the_match_draws_the_whole_panel(make_user):
    """The end reveals the seed and draws the end banner: nothing is kept."""
    match, users = _start("hatchlings", make_user, "end")
    game = registry.get("hatchlings")
    while True:
        match.refresh_from_db()
        seat = game.current_seats(match.state)[0]
        action = game.legal_actions(match.state, seat)[0]
        if game.result(game.apply(match.state, seat, action)[0]) is not None:
            break
        services.submit_action(match, match.seats.get(index=seat).user, action, match.version)
    client, _user, data = _mover(match, users)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    answer = _post(client, match, data, shown_by(page))
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert _whole(answer) and 'id="final"' in answer
    assert match.seed in answer  # revealed in the fair dice section
    assert normalised(as_the_page_shows(page, answer)) == normalised(_fresh(client, match))


def test_other_answers_and_polls_draw_the_whole_panel(make_user):
    match, users = _start("nogi", make_user, "others")
    client, _user, _data = _mover(match, users)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    headers = {"HX-Request": "true", **shown_by(page)}
    sent = client.post(reverse("match_chat", args=[match.pk]), {"text": "Hi"}, headers=headers)
    assert sent.status_code == 200 and _whole(sent.content.decode())
    poll = client.get(reverse("match_panel", args=[match.pk]), headers=headers)
    assert poll.status_code == 200 and _whole(poll.content.decode())


@pytest.mark.parametrize("chatted", [False, True])
def test_the_answer_reads_no_more_queries_than_the_whole_panel(make_user, chatted):
    """Fewer when somebody wrote in the match: the chat is not read."""
    match, users = _start("nogi", make_user, f"count-{chatted}")
    if chatted:
        _chatted(match, users)
    counts = {}
    for kind in ("whole", "kept"):
        match.refresh_from_db()
        client, _user, data = _mover(match, users)
        page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
        headers = shown_by(page)
        if kind == "whole":
            del headers[build.PANEL_SHOWN_HEADER]
        with CaptureQueriesContext(connection) as queries:
            answer = _post(client, match, data, headers)
        assert bool(_kept_parts(answer)) == (kind == "kept")
        counts[kind] = [q["sql"] for q in queries.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert len(counts["kept"]) == len(counts["whole"]) - (1 if chatted else 0), counts
    # The user, the locked read, the "your turn" row, the stream's rows of the
    # move (one INSERT, ``api.events``), the match's UPDATE, the move's INSERT.
    assert len(counts["kept"]) == 6, counts["kept"]
    assert sum('INSERT INTO "streams_event"' in sql for sql in counts["kept"]) == 1
    assert not any('"games_chatmessage"' in sql for sql in counts["kept"])

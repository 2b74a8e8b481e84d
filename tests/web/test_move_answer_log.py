"""An htmx move's answer carries only the move's own log lines when the page
shows the log as it was just before the move (issue 29: the answer's cost).

The panel sends the version whose log it shows (``hx-headers``, header
``Smoki-Log``); the answer then keeps the page's list (``hx-preserve``) and
puts the move's lines on top of it (``hx-swap-oob``), instead of reading and
describing the last 30 rows again. Any other header draws the whole log.
"""

from __future__ import annotations

import json
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from games.engine import registry
from games.panel import move_log
from tests.conftest import play_one

pytestmark = pytest.mark.django_db

ITEM = re.compile(r'<li value="(\d+)">.*?</li>', re.S)


@pytest.fixture
def nogi_match(make_user):
    from games.lobby import services as lobby

    users = [make_user("answer-a"), make_user("answer-b")]
    match = lobby.create_match(user=users[0], game_key="nogi", n_seats=2)
    lobby.join_match(user=users[1], match=match)
    nogi = registry.get("nogi")
    for _ in range(3):
        play_one(match, nogi)
    match.refresh_from_db()
    return match, nogi, users


def _mover(match, nogi, users) -> tuple[Client, dict]:
    seat = nogi.current_seats(match.state)[0]
    client = Client()
    client.force_login(users[seat])
    action = nogi.legal_actions(match.state, seat)[0]
    return client, {"action": json.dumps(action), "version": match.version}


def _post(client, match, data, shown: str | None):
    headers = {"HX-Request": "true"}
    if shown is not None:
        headers[move_log.LOG_SHOWN_HEADER] = shown
    return client.post(reverse("match_act", args=[match.pk]), data, headers=headers)


def _added_and_kept(body: str) -> tuple[list[str], bool]:
    """The <li> sent to go on top of the kept list, and whether the list is kept."""
    added = re.search(r'<ol id="move-log-list" hx-swap-oob="afterbegin">(.*?)</ol>', body, re.S)
    kept = 'id="move-log-list" hx-preserve="true"></ol>' in body
    return (ITEM.findall(added.group(1)) if added else []), kept


def test_the_panel_says_which_versions_log_it_shows(nogi_match):
    match, _nogi, users = nogi_match
    client = Client()
    client.force_login(users[0])
    body = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    panel = re.search(r'<div id="match-panel"[^>]*>', body).group(0)
    headers = json.loads(re.search(r"hx-headers='([^']*)'", panel).group(1))
    assert headers[move_log.LOG_SHOWN_HEADER] == str(match.version)
    assert 'id="move-log-list"' in body


def test_a_move_from_a_page_showing_the_log_before_it_carries_only_its_own_lines(nogi_match):
    match, nogi, users = nogi_match
    before = match.version
    client, data = _mover(match, nogi, users)
    response = _post(client, match, data, str(before))
    assert response.status_code == 200
    body = response.content.decode()
    added, kept = _added_and_kept(body)
    assert kept
    assert added == [str(before + 1)]
    # No older line is drawn again: the page keeps the ones it shows.
    assert set(ITEM.findall(body)) == {str(before + 1)}
    # The line is the one the whole panel draws for this viewer afterwards.
    line = re.search(rf'<li value="{before + 1}">.*?</li>', body, re.S).group(0)
    fresh = client.get(reverse("match_panel", args=[match.pk]), headers={"HX-Request": "true"})
    assert line in fresh.content.decode()


@pytest.mark.parametrize("shown", [None, "", "abc", "-1", "0", "99999", "٣", "1" * 40, "stale"])
def test_any_other_header_draws_the_whole_log(nogi_match, shown):
    match, nogi, users = nogi_match
    before = match.version
    if shown == "stale":
        shown = str(before - 1)
    client, data = _mover(match, nogi, users)
    response = _post(client, match, data, shown)
    assert response.status_code == 200
    body = response.content.decode()
    added, kept = _added_and_kept(body)
    assert (added, kept) == ([], False)
    numbers = [int(n) for n in ITEM.findall(body)]
    assert numbers == list(range(before + 1, -1, -1))


def test_the_answer_reads_less_than_the_whole_log(nogi_match):
    match, nogi, users = nogi_match
    counts = {}
    for shown in ("whole", "kept"):
        match.refresh_from_db()
        client, data = _mover(match, nogi, users)
        with CaptureQueriesContext(connection) as queries:
            header = str(match.version) if shown == "kept" else None
            assert _post(client, match, data, header).status_code == 200
        counts[shown] = len(queries)
    assert counts["kept"] == counts["whole"] - 1  # the log's last 30 rows are not read


def test_a_plain_form_move_is_still_a_redirect(nogi_match):
    match, nogi, users = nogi_match
    client, data = _mover(match, nogi, users)
    response = client.post(
        reverse("match_act", args=[match.pk]),
        data,
        headers={move_log.LOG_SHOWN_HEADER: str(match.version)},
    )
    assert response.status_code == 302


def test_the_kept_list_shows_no_more_lines_than_the_panel_draws():
    """The kept list grows by each move's lines; the style sheet shows its first
    ``LOG_TAIL``, as many as a panel drawn whole holds."""
    from django.conf import settings

    css = (settings.BASE_DIR / "static" / "css" / "smoki.css").read_text()
    assert f".log-tail > li:nth-child(n+{move_log.LOG_TAIL + 1}) {{ display: none; }}" in css

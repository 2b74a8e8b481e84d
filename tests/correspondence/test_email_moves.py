"""Moves from the "your turn" email: signed links, a confirmation page, once.

The email is sent to a real SMTP server (aiosmtpd); the test reads its HTML,
follows a move's link logged out, confirms, and finds the move in the log.
"""

from __future__ import annotations

import email
import re
import socket
import threading
from datetime import timedelta
from html import unescape

import pytest
import time_machine
from aiosmtpd.controller import Controller
from django.test import Client
from django.utils import timezone

from games.correspondence import compose, move_links
from games.lobby import services as lobby
from games.models import Match, Move, Notification, NotificationKind
from games.panel import presenters

pytestmark = pytest.mark.django_db
LINK = re.compile(r'href="(http://[^"]+/by-email/[^"]+)"')


class Inbox:
    def __init__(self):
        self.messages: list[email.message.Message] = []
        self.lock = threading.Lock()

    async def handle_DATA(self, server, session, envelope):
        with self.lock:
            self.messages.append(email.message_from_bytes(envelope.content))
        return "250 Message accepted for delivery"


@pytest.fixture
def inbox(settings):
    handler = Inbox()
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    controller = Controller(handler, hostname="127.0.0.1", port=port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": controller.port, "timeout": 5},
        }
    }
    yield handler
    controller.stop()


def nogi_match(alice, bob) -> Match:
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, options={"first_player": "host"}
    )
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    return match


def your_turn_row(match, user) -> Notification:
    return Notification.objects.get(match=match, user=user, kind=NotificationKind.YOUR_TURN)


def html_of(message: email.message.Message) -> str:
    for part in message.walk():
        if part.get_content_type() == "text/html":
            return part.get_payload(decode=True).decode()
    raise AssertionError("no HTML part")


def path_of(url: str) -> str:
    return re.sub(r"^http://[^/]+", "", unescape(url))


def test_a_move_from_the_email_through_a_real_smtp_server(alice, bob, inbox):
    match = nogi_match(alice, bob)
    compose.build_email(your_turn_row(match, alice)).send()
    (message,) = inbox.messages
    html = html_of(message)
    links = LINK.findall(html)
    assert 1 <= len(links) <= move_links.MAX_CHOICES
    text = next(p for p in message.walk() if p.get_content_type() == "text/plain")
    assert "/by-email/" in text.get_payload(decode=True).decode()  # the plain part lists them too

    visitor = Client()  # logged out, as from a phone's mail app
    url = path_of(links[0])
    page = visitor.get(url)
    assert page.status_code == 200
    label = re.search(r'id="email-move-label">([^<]+)<', page.content.decode()).group(1)
    assert label.strip()
    match.refresh_from_db()
    assert match.version == 0  # a GET changes nothing (mail scanners open links)

    done = visitor.post(url)
    assert done.status_code == 200 and 'id="email-move-done"' in done.content.decode()
    move = Move.objects.get(match=match, seq=1)
    assert move.actor_id == alice.pk and move.seat == 0
    assert "_auth_user_id" not in visitor.session  # it did not log the visitor in

    again = visitor.post(url)  # the same link twice: the position has changed
    assert 'id="email-move-stale"' in again.content.decode()
    assert Move.objects.filter(match=match).count() == 2  # the opening and the one move
    other = visitor.get(path_of(links[-1]))  # any other link of that email too
    assert 'id="email-move-stale"' in other.content.decode()


def test_forged_truncated_and_foreign_tokens_are_refused_and_change_nothing(alice, bob):
    match = nogi_match(alice, bob)
    choices = compose.email_choices(your_turn_row(match, alice))
    url = path_of(next(u for _label, u in choices if "/by-email/" in u))
    token = url.rstrip("/").rsplit("/", 1)[1]
    visitor = Client()
    for bad in (token[:-4], token[:20], token + "x", "garbage", "²٣"):
        response = visitor.post(f"/m/{match.pk}/by-email/{bad}/")
        assert response.status_code == 404
    other = nogi_match(bob, alice)
    assert visitor.post(f"/m/{other.pk}/by-email/{token}/").status_code == 404
    assert Move.objects.filter(match__in=[match, other]).count() == 2  # the openings only


def test_a_link_for_another_seat_or_version_cannot_be_made_up(alice, bob):
    """The token binds the seat, the user and the version: changing any one
    breaks the signature, so bob cannot turn alice's link into his."""
    match = nogi_match(alice, bob)
    choices = compose.email_choices(your_turn_row(match, alice))
    token = path_of(next(u for _l, u in choices if "/by-email/" in u)).rstrip("/").rsplit("/")[-1]
    link = move_links.read_token(token)
    assert (link.seat, link.user_id, link.version) == (0, alice.pk, 0)
    payload, signature = token.rsplit(":", 1)
    assert move_links.read_token(payload.replace("a", "b", 1) + ":" + signature) is None


def test_an_expired_link_says_so(alice, bob):
    match = nogi_match(alice, bob)
    choices = compose.email_choices(your_turn_row(match, alice))
    url = path_of(next(u for _l, u in choices if "/by-email/" in u))
    with time_machine.travel(match.deadline + timedelta(minutes=1)):
        page = Client().post(url)
    assert "expired" in page.content.decode()
    assert Move.objects.filter(match=match).count() == 1


def test_no_links_when_the_position_moved_on_or_for_other_emails(alice, bob):
    match = nogi_match(alice, bob)
    row = your_turn_row(match, alice)
    Match.objects.filter(pk=match.pk).update(version=5)
    row.refresh_from_db()
    assert compose.email_choices(row) == []
    started = Notification.objects.get(match=match, user=bob, kind=NotificationKind.MATCH_STARTED)
    assert compose.email_choices(started) == []
    assert timezone.now() < match.deadline


def test_the_email_tells_the_board_and_what_happened_since_my_last_move(alice, bob):
    match = nogi_match(alice, bob)
    row = your_turn_row(match, alice)
    first = compose.build_email(row).body
    assert "The board:" in first
    assert "Since your last move:" not in first  # nothing happened yet
    # alice moves, then bob: alice's next email tells bob's move, not hers.
    from games.engine import registry
    from games.play import services

    game = registry.get("nogi")
    for player in (alice, bob):
        match.refresh_from_db()
        seat = game.current_seats(match.state)[0]
        assert match.seats.get(index=seat).user == player
        services.submit_action(
            match, player, game.legal_actions(match.state, seat)[0], match.version
        )
    match.refresh_from_db()
    assert game.current_seats(match.state) == [0]
    row = your_turn_row(match, alice)
    body = compose.build_email(row).body
    since = body.split("Since your last move:")[1].split("The board:")[0]
    last = Move.objects.get(match=match, seq=match.version)
    sentence = presenters.get("nogi").describe_event(last.events[0], ["alice", "bob"])
    assert str(sentence) in since


def test_the_your_turn_email_shows_the_board_as_an_inline_picture(alice, bob, inbox):
    match = nogi_match(alice, bob)
    compose.build_email(your_turn_row(match, alice)).send()
    (message,) = inbox.messages
    assert message.get_content_type() == "multipart/alternative"
    html_part = message.get_payload()[1]
    assert html_part.get_content_type() == "multipart/related"
    images = [p for p in message.walk() if p.get_content_type() == "image/png"]
    assert len(images) == 1
    png = images[0].get_payload(decode=True)
    assert png.startswith(b"\x89PNG\r\n\x1a\n") and len(png) < 200_000
    assert images[0]["Content-ID"] == "<board@smoki>"
    assert 'src="cid:board@smoki"' in html_of(message)


def test_the_digest_shows_each_waiting_match_as_a_small_picture(alice, bob, make_user):
    from games.correspondence import digests
    from games.lobby import services as lobby

    first = nogi_match(alice, bob)
    second = lobby.create_match(user=alice, game_key="drako", n_seats=2)
    lobby.join_match(user=make_user("carol"), match=second)
    second.refresh_from_db()
    message = digests.build_digest(alice, [])
    parsed = email.message_from_bytes(message.message().as_bytes())
    images = {p["Content-ID"]: p for p in parsed.walk() if p.get_content_type() == "image/png"}
    waiting = [m for m in (first, second) if m.waiting_on_id == alice.pk]
    assert waiting, "alice must be to move somewhere"
    assert set(images) == {f"<board-{m.pk}@smoki>" for m in waiting}
    html = html_of(parsed)
    for match in waiting:
        assert f'src="cid:board-{match.pk}@smoki"' in html


def test_the_confirmation_page_reads_a_bounded_number_of_queries(
    alice, bob, django_assert_max_num_queries
):
    match = nogi_match(alice, bob)
    choices = compose.email_choices(your_turn_row(match, alice))
    url = path_of(next(u for _l, u in choices if "/by-email/" in u))
    visitor = Client()
    visitor.get(url)  # sessions and the like, once
    with django_assert_max_num_queries(4):
        assert visitor.get(url).status_code == 200


def test_moves_from_links_are_limited_per_player_whatever_the_address(
    alice, bob, make_user, settings
):
    """The limit counts the moves a player makes from links (the link's
    signed player), from whatever address: the links work logged out, so a
    count per address would be spread over addresses at will and shared by
    everyone behind one (a household, an office)."""
    from core import limits

    carol, dave = make_user("carol"), make_user("dave")
    mine, theirs = nogi_match(alice, bob), nogi_match(carol, dave)
    urls = [
        path_of(
            next(u for _l, u in compose.email_choices(your_turn_row(m, u)) if "/by-email/" in u)
        )
        for m, u in ((mine, alice), (theirs, carol))
    ]
    for _ in range(limits.EMAIL_MOVE.count):
        assert limits.hit(limits.EMAIL_MOVE, alice.pk)
    # Alice's link, from an address that never used one, is refused...
    refused = Client(REMOTE_ADDR="198.51.100.40").post(urls[0])
    assert refused.status_code == 429
    assert "many email links" in refused.content.decode()
    assert Move.objects.filter(match=mine).count() == 1  # the opening only
    # ...and carol's, from that same address, is taken.
    done = Client(REMOTE_ADDR="198.51.100.40").post(urls[1])
    assert 'id="email-move-done"' in done.content.decode()


def test_the_docs_state_the_email_link_limit_as_it_is_counted():
    import inspect
    from pathlib import Path

    from core import limits

    limit = limits.EMAIL_MOVE
    sentence = f"{limit.count} moves from links per player in {limit.seconds // 60} minutes"
    docs = Path(__file__).resolve().parents[2] / "docs"
    for name in ("correspondence.md", "moderation.md"):
        assert sentence in " ".join((docs / name).read_text().split()), name
    line = next(ln for ln in inspect.getsource(limits).splitlines() if ln.startswith("EMAIL_MOVE"))
    assert "per player" in line and "address" not in line


def _link_for(match, user, action) -> str:
    seat = match.seats.get(user=user).index
    token = move_links.make_token(
        match_id=match.pk,
        seat=seat,
        user_id=user.pk,
        version=match.version,
        action=action,
        deadline=match.deadline,
    )
    return move_links.url_for(token, match.pk)


def test_the_confirmation_page_shows_the_game_the_opponent_and_the_board(alice, bob):
    match = nogi_match(alice, bob)
    choices = compose.email_choices(your_turn_row(match, alice))
    url = path_of(next(u for _l, u in choices if "/by-email/" in u))
    page = Client().get(url).content.decode()
    assert f"Nogi za pas! #{match.pk}</a>" in page
    assert 'href="/players/bob/"' in page  # the opponent, linked
    board = page.split('id="email-move-board"', 1)[1]
    assert "<svg" in board  # the seat's board, as the match page draws it

    done = Client().post(url).content.decode()
    assert 'id="email-move-done"' in done
    after = done.split('id="email-move-next"', 1)[1]
    assert "Waiting for" in after and "bob" in after.split("</div>", 1)[0]
    assert 'id="email-move-board"' in done  # the board after the move


def test_after_a_move_that_leaves_the_turn_going_on_the_page_offers_the_next_choices(alice, bob):
    """Drako's second action: the page says the turn goes on and lists the
    next choices as signed links, each with its own confirmation page."""
    from games.engine import registry
    from games.play import services

    match = lobby.create_match(user=alice, game_key="drako", n_seats=2)
    lobby.join_match(user=bob, match=match)
    match.refresh_from_db()
    game = registry.get("drako")
    first = game.current_seats(match.state)[0]
    opener = match.seats.get(index=first).user
    services.submit_action(match, opener, game.legal_actions(match.state, first)[0], match.version)
    match.refresh_from_db()
    (seat,) = game.current_seats(match.state)
    player = match.seats.get(index=seat).user
    assert {"type": "draw"} in game.legal_actions(match.state, seat)
    done = Client().post(_link_for(match, player, {"type": "draw"})).content.decode()
    after = done.split('id="email-move-next"', 1)[1].split("</div>", 1)[0]
    assert "It is still your turn." in after
    links = re.findall(r'href="([^"]+)"', after)
    assert links and all(f"/m/{match.pk}/" in link for link in links)
    follow = next(link for link in links if "/by-email/" in link)
    page = Client().get(unescape(follow)).content.decode()
    assert 'id="email-move-confirm"' in page

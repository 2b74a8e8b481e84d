"""Safe moves: confirming the last click, resigning, reloading mid-choice, undo by consent."""

import html
import json
import re

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core.errors import Conflict, Forbidden
from games.engine import registry
from games.lobby import services as lobby
from games.models import (
    Match,
    MatchStatus,
    Notification,
    NotificationKind,
    SeatStatus,
    TimeoutPolicy,
)
from games.play import safety, services
from tests.conftest import each_seat_moves, user_to_move

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user, touch=False):
    client = Client()
    client.force_login(user)
    if touch:
        client.cookies["smoki_touch"] = "1"
    return client


def _final_forms(html):
    return re.findall(r'<button type="submit" class="choice final"', html)


def _set_confirm(user, value):
    user.profile.confirm_moves = value
    user.profile.save()


@pytest.mark.parametrize(
    ("preference", "touch", "asks"),
    [
        ("auto", False, False),
        ("auto", True, True),
        ("always", False, True),
        ("never", True, False),
    ],
)
def test_the_last_click_asks_to_confirm_by_preference(started_match, nogi, preference, touch, asks):
    user = user_to_move(started_match, nogi)
    _set_confirm(user, preference)
    client = client_for(user, touch=touch)
    seat = nogi.current_seats(started_match.state)[0]
    legal = nogi.legal_actions(started_match.state, seat)
    presenter = __import__("games.panel.presenters", fromlist=["get"]).get("nogi")
    view = nogi.view(started_match.state, seat)
    steps = presenter.action_steps(legal[0], {**view, "_names": ["a", "b", "c"], "_version": 0})
    keys = [key for key, _label in steps]
    # One click before the last: the last click either posts or leads to a confirmation.
    partial = ".".join(keys[:-1])
    url = reverse("match_detail", args=[started_match.pk])
    page = client.get(f"{url}?path={partial}" if partial else url).content.decode()
    assert bool(_final_forms(page)) is not asks
    if asks:
        full = client.get(f"{url}?path={'.'.join(keys)}").content.decode()
        assert 'class="confirm-summary"' in full
        assert steps[-1][1].split(" ")[0] in full
        action = re.search(r'name="action" value="([^"]+)"', full).group(1)
        version = started_match.version
        response = client.post(
            reverse("match_act", args=[started_match.pk]),
            {"action": html.unescape(action), "version": version},
        )
        assert response.status_code == 302
        assert Match.objects.get(pk=started_match.pk).version == version + 1


def test_half_chosen_moves_live_in_the_address(started_match, nogi):
    user = user_to_move(started_match, nogi)
    client = client_for(user)
    page = client.get(reverse("match_detail", args=[started_match.pk])).content.decode()
    pushes = re.findall(r'hx-push-url="([^"]+)"', page)
    assert pushes and all("?path=" in url for url in pushes)
    # Reloading such an address shows the same half-chosen move.
    reloaded = client.get(pushes[0].replace("&amp;", "&")).content.decode()
    assert "›" in re.search(r"<h2>Your move.*?</h2>", reloaded, re.S).group(0)
    # After the move the address goes back to the plain match page.
    seat = nogi.current_seats(started_match.state)[0]
    action = nogi.legal_actions(started_match.state, seat)[0]
    response = client.post(
        reverse("match_act", args=[started_match.pk]),
        {"action": json.dumps(action), "version": started_match.version},
        **HTMX,
    )
    assert response["HX-Replace-Url"] == reverse("match_detail", args=[started_match.pk])


def _text(page: str) -> str:
    """A page's words without its tags (the log links each player's name)."""
    return re.sub(r"<[^>]+>", "", page)


def test_resigning_hands_the_seat_to_a_bot_and_ranks_last(started_match, nogi, carol):
    response = client_for(carol).post(reverse("match_resign", args=[started_match.pk]))
    assert response.status_code == 302
    match = Match.objects.get(pk=started_match.pk)
    seat = match.seats.get(user=carol)
    assert seat.status == SeatStatus.RESIGNED and seat.played_by_bot
    assert match.status == MatchStatus.ACTIVE
    log = _text(Client().get(reverse("match_log", args=[match.pk])).content.decode())
    # The entry names the player and what follows, not who plays the seat now; the
    # seat itself is shown as a bot's from here on.
    assert "carol resigned; a bot plays on." in log
    assert "(bot) resigned" not in log
    page = client_for(carol).get(reverse("match_detail", args=[match.pk])).content.decode()
    # The log names carol with a link to her page.
    assert (
        '<a class="player-link" href="/players/carol/">carol</a> resigned; a bot plays on.' in page
    )
    assert "carol (bot)" in page
    # The match plays on (a bot for carol) and carol is ranked last at the end.
    from tests.conftest import play_one

    for i in range(2000):
        match.refresh_from_db()
        if match.status != MatchStatus.ACTIVE:
            break
        seat_index = nogi.current_seats(match.state)[0]
        if match.seats.get(index=seat_index).played_by_bot:
            services.play_bot_turns(match.pk, 1)
        else:
            play_one(match, nogi, choose=i)
    seat.refresh_from_db()
    assert seat.rank == 3
    assert match.result["dropped"] == [seat.index]
    # The log names carol as herself throughout; the moves the bot made for her
    # say so once, in who made them ("carol (Bot)"), never "carol (bot)".
    log = _text(Client().get(reverse("match_log", args=[match.pk])).content.decode())
    assert "carol (Bot)" in log
    assert "carol (bot)" not in log


def test_resigning_a_loss_on_time_match_loses_it(alice, bob):
    match = lobby.create_match(
        user=alice, game_key="nogi", n_seats=2, timeout_policy=TimeoutPolicy.LOSS
    )
    lobby.join_match(user=bob, match=match)
    each_seat_moves(match)  # resigning before that aborts the match
    safety.resign(user=bob, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    assert {s.user_id: s.rank for s in match.seats.all()} == {alice.pk: 1, bob.pk: 2}
    log = _text(Client().get(reverse("match_log", args=[match.pk])).content.decode())
    assert "bob resigned and lost the match." in log and "(bot) resigned" not in log


def test_an_old_resignation_entry_without_its_outcome_still_reads(alice):
    from games.panel.move_log import describe_moderation

    event = {"type": "_moderation", "op": "resign", "seat": 0}
    assert describe_moderation(event, ["alice"]) == "alice resigned."
    with translation.override("pl"):
        polish = describe_moderation({**event, "then": "bot"}, ["alice"])
    assert polish.startswith("alice") and "bot plays on" not in polish


def test_resign_refusals(started_match, make_user, carol):
    stranger = make_user("stranger")
    response = client_for(stranger).post(reverse("match_resign", args=[started_match.pk]))
    assert response.status_code == 403
    safety.resign(user=carol, match=started_match)
    with pytest.raises(Conflict):
        safety.resign(user=carol, match=started_match)


def _hatchlings_at_an_undoable_move(alice, bob):
    game = registry.get("hatchlings")
    match = lobby.create_match(user=alice, game_key="hatchlings", n_seats=2)
    lobby.join_match(user=bob, match=match)
    for _step in range(20):
        match.refresh_from_db()
        last = match.moves.order_by("-seq").first()
        if safety.undoable_seat(match, last) is not None and match.state["clutch"] == []:
            return match, game
        seat = game.current_seats(match.state)[0]
        action = next(a for a in game.legal_actions(match.state, seat) if a["type"] == "hatch")
        services.submit_action(match, match.seats.get(index=seat).user, action, match.version)
    raise AssertionError("no undoable move reached")


def test_undo_by_consent_takes_the_move_back(alice, bob):
    match, game = _hatchlings_at_an_undoable_move(alice, bob)
    mover = match.seats.get(index=match.moves.order_by("-seq").first().seat).user
    other = bob if mover == alice else alice
    version = match.version
    entries = list(match.moves.order_by("seq").values_list("seat", "action"))
    from games.engine.replay import effective_moves, replay

    before = replay(game, 2, match.options, match.seed, effective_moves(entries)[:-1])
    page = client_for(mover).get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'id="ask-undo"' in page
    client_for(mover).post(reverse("match_undo", args=[match.pk]), {"answer": "ask"})
    page = client_for(other).get(reverse("match_detail", args=[match.pk])).content.decode()
    assert "asks to take back their last move" in page and 'value="agree"' in page
    client_for(other).post(reverse("match_undo", args=[match.pk]), {"answer": "agree"})
    match.refresh_from_db()
    assert match.state == before
    assert match.version == version + 1 and match.undo_request is None
    assert game.current_seats(match.state) == [match.seats.get(user=mover).index]
    log = Client().get(reverse("match_log", args=[match.pk])).content.decode()
    assert "took back their last move" in log
    # The fairness check still replays the log to the same state.
    verify = Client().get(reverse("match_verify", args=[match.pk]))
    assert verify.status_code == 200


def test_a_refusal_ends_the_request_and_changes_nothing(alice, bob):
    match, _game = _hatchlings_at_an_undoable_move(alice, bob)
    mover = match.seats.get(index=match.moves.order_by("-seq").first().seat).user
    other = bob if mover == alice else alice
    state, version = match.state, match.version
    safety.ask_undo(user=mover, match=match)
    with pytest.raises(Forbidden):
        safety.answer_undo(user=mover, match=match, agree=True)
    safety.answer_undo(user=other, match=match, agree=False)
    match.refresh_from_db()
    assert (match.state, match.version, match.undo_request) == (state, version, None)


def test_undo_is_refused_after_a_roll_or_for_someone_else_s_move(started_match, nogi):
    from tests.conftest import play_one

    play_one(started_match, nogi)
    started_match.refresh_from_db()
    mover = started_match.seats.get(index=started_match.moves.order_by("-seq").first().seat)
    with pytest.raises(Conflict, match="revealed something new"):
        safety.ask_undo(user=mover.user, match=started_match)
    someone_else = started_match.seats.exclude(pk=mover.pk).first().user
    response = client_for(someone_else).post(
        reverse("match_undo", args=[started_match.pk]), {"answer": "ask"}
    )
    assert response.status_code == 409
    bad = client_for(someone_else).post(
        reverse("match_undo", args=[started_match.pk]), {"answer": "maybe"}
    )
    assert bad.status_code == 400
    started_match.refresh_from_db()
    assert started_match.undo_request is None


def test_a_request_to_take_back_a_move_notifies_the_player_who_must_consent(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    match, _game = _hatchlings_at_an_undoable_move(alice, bob)
    mover = match.seats.get(index=match.moves.order_by("-seq").first().seat).user
    other = bob if mover == alice else alice
    with django_capture_on_commit_callbacks(execute=True):
        client_for(mover).post(reverse("match_undo", args=[match.pk]), {"answer": "ask"})
    rows = Notification.objects.filter(match=match, kind=NotificationKind.UNDO_REQUEST)
    assert [row.user for row in rows] == [other], "only the player who must consent"
    name = mover.profile.name
    # The email goes through the usual outbox path, in the player's words.
    mails = [m for m in mailoutbox if other.email in m.to and "take back" in m.subject]
    assert len(mails) == 1
    assert mails[0].subject.endswith(f"{name} asks to take back a move in Hatchlings #{match.pk}")
    assert reverse("match_detail", args=[match.pk]) in mails[0].body
    # The bell offers to agree or refuse right there.
    bell = client_for(other).get(reverse("notifications")).content.decode()
    assert f"{name} asks to take back a move" in bell
    assert f'action="{reverse("match_undo", args=[match.pk])}"' in bell
    assert 'value="agree"' in bell and 'value="refuse"' in bell
    response = client_for(other).post(reverse("match_undo", args=[match.pk]), {"answer": "agree"})
    assert response.status_code == 302
    match.refresh_from_db()
    assert match.undo_request is None and match.moves.order_by("-seq").first().action["op"] == (
        "agreed_undo"
    )
    # Answered: the entry no longer offers an answer.
    bell = client_for(other).get(reverse("notifications")).content.decode()
    assert 'value="agree"' not in bell


def test_the_request_is_notified_once_and_its_email_not_sent_once_answered(
    alice, bob, mailoutbox, django_capture_on_commit_callbacks
):
    from games.correspondence import compose, delivery
    from games.play import safety

    match, _game = _hatchlings_at_an_undoable_move(alice, bob)
    mover = match.seats.get(index=match.moves.order_by("-seq").first().seat).user
    other = bob if mover == alice else alice
    safety.ask_undo(user=mover, match=match)  # the email waits (no commit callbacks run)
    row = Notification.objects.get(match=match, kind=NotificationKind.UNDO_REQUEST)
    safety.answer_undo(user=other, match=match, agree=False)
    assert delivery.deliver(row.pk) == "skipped", "no email for an answered request"
    safety.ask_undo(user=mover, match=match)  # asked again at the same move
    assert Notification.objects.filter(match=match, kind=NotificationKind.UNDO_REQUEST).count() == 1
    with translation.override("cs"):
        subject = compose.message_context(row)["subject"]
    assert "take back" not in subject and mover.profile.name in subject

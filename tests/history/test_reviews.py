"""The computer review of a finished match (games/play/reviews.py): asked for
from the end banner or the replay, computed once on its own queue, shown in
the replay's move list, beside its board, as a chart with a table, and as a
line per player on the end banner; refused while a match is in play."""

import pytest
from django.conf import settings as django_settings
from django.urls import reverse

from games.lobby import services as lobby
from games.models import MatchReview, MatchStatus, ReviewStatus
from games.play import reviews, safety, services
from tests.conftest import each_seat_moves

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _small_budget(settings):
    settings.SMOKI = {**settings.SMOKI, "REVIEW_ITERATIONS": 4, "REVIEW_SAMPLES": 3}


def finished(user, game_key="nogi"):
    """A practice match against the heuristic bot, every seat having moved,
    then resigned by ``user``: finished, a few decisions long."""
    match = lobby.play_bot(user=user, game_key=game_key, level="heuristic")
    services.play_bot_turns(match.pk, 50)
    match = each_seat_moves(match)
    for _turn in range(3):  # a few more decisions of each side
        match = _one_more(match, user)
    safety.resign(user=user, match=match)
    match.refresh_from_db()
    assert match.status == MatchStatus.FINISHED
    return match


def _one_more(match, user):
    from games.engine import registry

    game = registry.get(match.game_key)
    match.refresh_from_db()
    if match.status != MatchStatus.ACTIVE:
        return match
    index = game.current_seats(match.state)[0]
    seat = match.seats.get(index=index)
    if seat.user_id == user.pk and not seat.played_by_bot:
        services.submit_action(
            match, user, game.legal_actions(match.state, index)[0], match.version
        )
    services.play_bot_turns(match.pk, 50)
    match.refresh_from_db()
    return match


def test_reviews_go_to_their_own_queue_never_the_bots_one():
    routes = django_settings.CELERY_TASK_ROUTES
    assert routes["games.tasks.review_match"] == {"queue": "reviews"}
    assert routes["games.tasks.play_bot_turns"] == {"queue": "bots"}
    # No other task shares the reviews' queue, and no review waits on the bots'.
    assert [name for name, route in routes.items() if route["queue"] == "reviews"] == [
        "games.tasks.review_match"
    ]


def test_asked_from_the_banner_computed_once_and_shown(
    client, alice, django_capture_on_commit_callbacks
):
    match = finished(alice)
    client.force_login(alice)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'id="ask-review"' in page
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("match_review", args=[match.pk]))
    assert response.status_code == 302
    review = MatchReview.objects.get(match=match)
    assert review.status == ReviewStatus.READY
    steps = {row["step"] for row in review.decisions}
    moved = set(match.moves.filter(seat__isnull=False).values_list("seq", flat=True))
    assert steps and steps <= moved
    # Asking again makes no second review and computes nothing again.
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        client.post(reverse("match_review", args=[match.pk]))
    assert callbacks == [] and MatchReview.objects.filter(match=match).count() == 1
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'id="review-lines"' in page and "average loss" in page
    assert 'id="ask-review"' not in page
    replay = client.get(reverse("match_replay", args=[match.pk])).content.decode()
    assert 'id="review-chart"' in replay and "<table" in replay
    first = min(steps)
    at = client.get(reverse("match_replay", args=[match.pk]), {"at": first}).content.decode()
    assert 'id="review-mark"' in at


def test_asked_from_the_replay_with_htmx(client, alice, django_capture_on_commit_callbacks):
    match = finished(alice)
    client.force_login(alice)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("match_replay_review", args=[match.pk]),
            {"step": "2"},
            headers={"HX-Request": "true"},
        )
    assert response.status_code == 302 and "at=2" in response["Location"]
    page = client.get(response["Location"]).content.decode()
    assert 'id="review-lines"' in page
    assert MatchReview.objects.get(match=match).status == ReviewStatus.READY


def test_a_running_match_is_never_reviewed(client, alice):
    match = lobby.play_bot(user=alice, game_key="nogi", level="heuristic")
    services.play_bot_turns(match.pk, 50)
    client.force_login(alice)
    page = client.get(reverse("match_detail", args=[match.pk])).content.decode()
    assert 'id="ask-review"' not in page
    for name in ("match_review", "match_replay_review"):
        response = client.post(reverse(name, args=[match.pk]), {"step": "0"})
        assert response.status_code == 409
        assert "still being played" in response.content.decode()
    assert not MatchReview.objects.exists()
    replay = client.get(reverse("match_replay", args=[match.pk])).content.decode()
    assert 'id="ask-review"' not in replay


def test_a_stranger_and_a_guest(client, alice, bob):
    match = finished(alice)
    # A guest: asked to log in, nothing written.
    response = client.post(reverse("match_review", args=[match.pk]))
    assert response.status_code in (302, 403, 404)
    assert not MatchReview.objects.exists()
    # A private practice match: another person gets 404, nothing written.
    client.force_login(bob)
    assert client.post(reverse("match_replay_review", args=[match.pk])).status_code == 404
    assert not MatchReview.objects.exists()


def test_a_failed_review_may_be_asked_for_again(alice, django_capture_on_commit_callbacks):
    match = finished(alice)
    MatchReview.objects.create(match=match, status=ReviewStatus.FAILED)
    with django_capture_on_commit_callbacks(execute=True):
        reviews.request_review(user=alice, match=match)
    assert MatchReview.objects.get(match=match).status == ReviewStatus.READY


def _queries(client, url, **query) -> int:
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    client.get(url, query)  # the kept positions and the session, as a second look finds them
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url, query).status_code == 200
    return sum("SAVEPOINT" not in q["sql"] for q in queries.captured_queries)


def test_a_review_costs_the_replay_and_the_banner_one_query(
    client, alice, django_capture_on_commit_callbacks
):
    match = finished(alice)
    client.force_login(alice)
    replay_url = reverse("match_replay", args=[match.pk])
    page_url = reverse("match_detail", args=[match.pk])
    before = [_queries(client, replay_url, at=1), _queries(client, replay_url)]
    banner_before = _queries(client, page_url)
    with django_capture_on_commit_callbacks(execute=True):
        reviews.request_review(user=alice, match=match)
    assert MatchReview.objects.get(match=match).status == ReviewStatus.READY
    after = [_queries(client, replay_url, at=1), _queries(client, replay_url)]
    # The review is one read, wherever the step and however many decisions it holds.
    assert after == [before[0], before[1]]
    assert _queries(client, page_url) == banner_before

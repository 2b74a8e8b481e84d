"""A match's thumbnail (games/correspondence/thumbnails.py, /m/<id>/thumb.png):
the spectator's board, small, whoever asks; only for those who may see the
match; drawn once per version (the shared cache) and kept by the browser;
shown by the lists ("My matches", Watch, the player page) from what they
read already, with no query per match."""

from __future__ import annotations

import io
import re

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from PIL import Image

from accounts.models import Profile
from games.correspondence import thumbnails
from games.engine import registry
from games.engine.rng import Rng
from games.models import Match, MatchStatus, Visibility
from games.panel.thumbnails import HEIGHT, WIDTH, thumbnail_url
from tests.conformance.kit import GAME_KEYS, bot_choice
from tests.players.conftest import start_match

# A thumbnail is a small picture: a few kB, never more than this.
THUMBNAIL_BYTES_AT_MOST = 20_000


@pytest.fixture
def moderator(make_user):
    from django.contrib.auth.models import Group

    user = make_user("mod")
    user.is_staff = True
    user.save(update_fields=["is_staff"])
    user.groups.add(Group.objects.get(name="moderator"))
    return user


def _client(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


def _png(data: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(data))
    image.load()
    return image


def _players(make_user, key: str, prefix: str = "p"):
    game = registry.get(key)
    n = min(max(3, game.min_players), game.max_players)
    return [make_user(f"{prefix}{key}{i}") for i in range(n)]


def _positions(key: str, n: int) -> list[dict]:
    """The start, a few bot moves in, and later in a bot game of ``key``."""
    game = registry.get(key)
    state = game.setup(n, {}, f"thumb-{key}")
    found = [state]
    for step in range(40):
        seats = game.current_seats(state)
        if not seats:
            break
        action = bot_choice(key, state, seats[0], "random", f"t{step}")
        following, _events = game.apply(state, seats[0], action)
        if game.result(following) is not None:
            break
        state = following
        if step in (6, 39):
            found.append(state)
    return found


@pytest.mark.django_db
@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_thumbnail_is_a_small_palette_png_of_its_box_for_every_game(key, make_user):
    match = start_match(_players(make_user, key), key)
    response = _client().get(thumbnail_url(match))
    assert response.status_code == 200
    assert response["Content-Type"] == "image/png"
    data = response.content
    assert data.startswith(b"\x89PNG") and len(data) <= THUMBNAIL_BYTES_AT_MOST, len(data)
    image = _png(data)
    assert image.size == (WIDTH, HEIGHT) and image.mode == "P"


@pytest.mark.django_db
@pytest.mark.parametrize("key", GAME_KEYS)
def test_the_thumbnail_never_shows_what_a_spectator_may_not_know(key, make_user):
    """The secrets differential: the game's ``perturb_secrets(state, None)``
    changes every seat's secret and nothing a spectator sees; the
    thumbnail's bytes stay the same."""
    game = registry.get(key)
    users = _players(make_user, key)
    match = start_match(users, key)
    rng = Rng.from_seed(f"thumb-secrets-{key}")
    for state in _positions(key, len(users)):
        match.state = state
        drawn = thumbnails.draw(match)
        for _attempt in range(3):
            match.state = game.perturb_secrets(state, None, rng)
            assert thumbnails.draw(match) == drawn, f"{key}: the thumbnail shows a secret"


@pytest.mark.django_db
def test_a_private_match_s_thumbnail_is_only_for_those_who_may_see_it(make_user, moderator):
    players = [make_user("pa"), make_user("pb")]
    stranger = make_user("stranger")
    match = start_match(players, "drako", visibility=Visibility.PRIVATE)
    url = thumbnail_url(match)
    assert _client().get(url).status_code == 404
    assert _client(stranger).get(url).status_code == 404
    # The same answer as a match that does not exist.
    missing = reverse("match_thumbnail", args=[match.pk + 1000]) + "?v=1"
    assert _client(stranger).get(missing).status_code == 404
    for user in (players[1], moderator):
        response = _client(user).get(url)
        assert response.status_code == 200
        assert response["Cache-Control"].startswith("private,")
    # The same picture for a player as for anyone: the spectator's.
    assert _client(players[0]).get(url).content == _client(moderator).get(url).content


@pytest.mark.django_db
def test_a_match_not_in_play_has_no_thumbnail(make_user):
    from games.lobby import services as lobby

    match = lobby.create_match(user=make_user("host"), game_key="nogi", n_seats=3)
    assert thumbnail_url(match) is None
    url = reverse("match_thumbnail", args=[match.pk]) + "?v=0"
    assert _client().get(url).status_code == 404


@pytest.mark.django_db
def test_the_second_request_reads_the_cache_and_draws_nothing(make_user, monkeypatch):
    match = start_match([make_user("a1"), make_user("a2"), make_user("a3")])
    url = thumbnail_url(match)
    drawn = []
    real_draw = thumbnails.draw
    monkeypatch.setattr(thumbnails, "draw", lambda m: drawn.append(m.pk) or real_draw(m))
    first = _client().get(url)
    assert drawn == [match.pk]
    second = _client().get(url)
    assert drawn == [match.pk]  # no second drawing
    assert second.content == first.content
    # Kept by the browser: the version is in the URL.
    assert second["Cache-Control"] == "public, max-age=31536000, immutable"
    # Another version in the URL gets the current picture, not to be kept.
    stale = _client().get(url.replace(f"v={match.version}", "v=999"))
    assert stale.status_code == 200 and stale["Cache-Control"] == "no-cache"
    assert drawn == [match.pk]
    # A new version is drawn anew.
    Match.objects.filter(pk=match.pk).update(version=match.version + 1)
    match.refresh_from_db()
    _client().get(thumbnail_url(match))
    assert drawn == [match.pk, match.pk]


@pytest.mark.django_db
@pytest.mark.parametrize("value", ["", "x", "-1", "1" * 400, "1.5", "v=1"])
def test_a_forged_version_is_never_an_error(make_user, value):
    match = start_match([make_user("f1"), make_user("f2"), make_user("f3")])
    url = reverse("match_thumbnail", args=[match.pk]) + f"?v={value}"
    response = _client().get(url)
    assert response.status_code == 200 and response["Cache-Control"] == "no-cache"


_IMG = re.compile(
    r'<img class="thumb" src="([^"]+)" width="(\d+)" height="(\d+)"[^>]* alt="([^"]+)"'
)


def _measure(client: Client, url: str):
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200
    return len(queries), _IMG.findall(response.content.decode())


@pytest.mark.django_db
@pytest.mark.parametrize("page", ["lobby", "watch", "player_page"])
def test_the_lists_show_each_match_s_thumbnail_with_no_query_per_match(page, make_user):
    me = make_user("me")
    others = [make_user(f"o{i}") for i in range(8)]
    url = reverse(page, args=[me.username]) if page == "player_page" else reverse(page)
    client = _client(me)
    start_match([me, others[0], others[1]])
    few_queries, few = _measure(client, url)
    assert len(few) == 1
    for i in range(2, 8, 2):
        start_match([others[i], me, others[i + 1]])
    many_queries, many = _measure(client, url)
    assert len(many) == 4
    assert many_queries == few_queries
    ids = {m.pk for m in Match.objects.filter(status=MatchStatus.ACTIVE)}
    for src, width, height, alt in many:
        pk = int(re.search(r"/m/(\d+)/", src).group(1))
        assert pk in ids
        assert src == thumbnail_url(Match.objects.get(pk=pk))
        assert (int(width), int(height)) == (WIDTH, HEIGHT)
        assert alt == f"Board of match #{pk}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "words"),
    [("pl", "Plansza partii #"), ("cs", "Herní plán partie #")],
)
def test_the_alt_text_is_translated(make_user, language, words):
    me = make_user("me")
    start_match([me, make_user("x1"), make_user("x2")])
    Profile.objects.filter(user=me).update(language=language)
    html = _client(me).get(reverse("lobby")).content.decode()
    alts = [alt for *_rest, alt in _IMG.findall(html)]
    assert alts and all(alt.startswith(words) for alt in alts), alts

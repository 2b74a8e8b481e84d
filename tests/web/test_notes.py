"""Private notes per match and player: kept with the match, seen only by their author."""

import pytest
from django.test import Client
from django.urls import reverse

from games.models import Note

pytestmark = pytest.mark.django_db
HTMX = {"HTTP_HX_REQUEST": "true"}


def client_for(user):
    client = Client()
    client.force_login(user)
    return client


def test_notes_are_kept_and_seen_only_by_their_author(started_match, alice, bob):
    url = reverse("match_notes", args=[started_match.pk])
    response = client_for(alice).post(url, {"text": "  Bob backs yellow, I think.  "})
    assert response.status_code == 302
    assert Note.objects.get(match=started_match, user=alice).text == "Bob backs yellow, I think."
    page = reverse("match_detail", args=[started_match.pk])
    assert "Bob backs yellow, I think." in client_for(alice).get(page).content.decode()
    for viewer in (client_for(bob), Client()):
        assert "Bob backs yellow" not in viewer.get(page).content.decode()
    assert 'id="note-text"' in client_for(bob).get(page).content.decode()
    assert 'id="note-text"' not in Client().get(page).content.decode()
    # Through htmx the notes box answers alone, saying they are saved.
    answer = client_for(alice).post(url, {"text": "Changed my mind."}, **HTMX)
    assert answer.status_code == 200 and "Your notes are saved." in answer.content.decode()
    assert Note.objects.filter(match=started_match).count() == 1


def test_notes_refusals_change_nothing(started_match, make_user, alice):
    stranger = make_user("stranger")
    url = reverse("match_notes", args=[started_match.pk])
    assert client_for(stranger).post(url, {"text": "hi"}).status_code == 403
    assert Client().post(url, {"text": "hi"}).status_code in (302, 403)
    too_long = client_for(alice).post(url, {"text": "x" * 5001})
    assert too_long.status_code == 400
    assert not Note.objects.exists()

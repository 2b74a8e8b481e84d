import pytest
from django.contrib.auth import get_user_model

from games.lobby import services as lobby
from games.models import Notification

pytestmark = pytest.mark.django_db


def test_staff_see_the_delivery_log_and_cannot_edit_it(alice, bob, client):
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    row = Notification.objects.filter(user=alice).first()
    staff = get_user_model().objects.create_superuser("mod", "mod@example.com", "pw")
    client.force_login(staff)
    listing = client.get("/admin/games/notification/")
    assert listing.status_code == 200 and "match_started" in listing.content.decode()
    detail = client.get(f"/admin/games/notification/{row.pk}/change/")
    assert detail.status_code == 200 and 'name="status"' not in detail.content.decode()
    assert client.post(f"/admin/games/notification/{row.pk}/delete/").status_code == 403


def test_players_have_no_access_to_the_delivery_log(alice, client):
    client.force_login(alice)
    response = client.get("/admin/games/notification/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]

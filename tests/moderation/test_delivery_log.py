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


# -- Pushes and webhook posts, a tournament's feed among them -----------------------------------

SIGNING_SECRET = "whsec_c2lnbmluZy1zZWNyZXQtbmV2ZXItc2hvd24"
DISCORD_TOKEN = "Xy7-discord-webhook-token-part"


@pytest.fixture
def deliveries(alice, bob):
    """A failed post of a tournament's feed to its organiser's signed
    webhook, a player's push sent, and a post to a webhook since removed."""
    from games.models import ChannelDelivery, PushSubscription, Webhook
    from tests.tournaments.conftest import new_tournament
    from tournaments.models import TournamentWebhook

    cup = new_tournament(alice)
    hook = Webhook.objects.create(
        user=alice,
        kind=Webhook.Kind.GENERIC,
        url=f"https://hooks.example.org/in/{DISCORD_TOKEN}",
        secret=SIGNING_SECRET,
        personal=False,
    )
    TournamentWebhook.objects.create(tournament=cup, webhook=hook)
    device = PushSubscription.objects.create(
        user=alice,
        endpoint="https://fcm.googleapis.com/fcm/send/device-secret-path",
        p256dh="p",
        auth="a",
    )
    match = lobby.create_match(user=alice, game_key="nogi", n_seats=2)
    lobby.join_match(user=bob, match=match)
    note = Notification.objects.filter(user=alice, match=match).first()
    assert note is not None
    feed = ChannelDelivery.objects.create(
        notification=None,
        event={"type": "tournament.round_started", "title": f"Round 1 of {cup.name} has started"},
        channel="webhook",
        target_id=hook.pk,
        version=1,
        tag="start-r1",
        status="failed",
        attempts=5,
        last_error="502 the endpoint answered Bad Gateway",
    )
    pushed = ChannelDelivery.objects.create(
        notification=note, channel="push", target_id=device.pk, version=1, status="sent", attempts=1
    )
    gone = ChannelDelivery.objects.create(
        notification=note, channel="webhook", target_id=hook.pk + 1000, version=1, status="skipped"
    )
    return cup, hook, feed, pushed, gone


def test_moderators_read_every_push_and_post_with_its_hook_never_its_secret(mod_client, deliveries):
    cup, hook, feed, pushed, gone = deliveries
    listing = mod_client.get("/admin/games/channeldelivery/")
    assert listing.status_code == 200
    page = listing.content.decode()
    assert f"Round 1 of {cup.name} has started" in page
    assert "502 the endpoint answered Bad Gateway" in page and "Failed" in page
    assert f"Generic (JSON, signed) #{hook.pk}: alice, hooks.example.org" in page
    assert f"Push notification #{pushed.target_id}: alice, fcm.googleapis.com" in page
    assert f"#{gone.target_id}, removed" in page
    for secret in (SIGNING_SECRET, DISCORD_TOKEN, "device-secret-path"):
        assert secret not in page
    # Filters: the feed's rows apart from the players', by status and channel.
    feed_only = mod_client.get("/admin/games/channeldelivery/?for=feed")
    assert [row.pk for row in feed_only.context["cl"].result_list] == [feed.pk]
    players = mod_client.get("/admin/games/channeldelivery/?for=player")
    assert {row.pk for row in players.context["cl"].result_list} == {pushed.pk, gone.pk}
    failed = mod_client.get("/admin/games/channeldelivery/?status__exact=failed")
    assert failed.context["cl"].result_count == 1
    pushes = mod_client.get("/admin/games/channeldelivery/?channel__exact=push")
    assert pushes.context["cl"].result_count == 1
    detail = mod_client.get(f"/admin/games/channeldelivery/{feed.pk}/change/")
    assert detail.status_code == 200
    text = detail.content.decode()
    assert "Bad Gateway" in text and 'name="status"' not in text
    for secret in (SIGNING_SECRET, DISCORD_TOKEN):
        assert secret not in text


def test_the_deliveries_are_read_only_and_closed_to_players(mod_client, deliveries, client, bob):
    from games.models import ChannelDelivery

    _cup, _hook, feed, _pushed, _gone = deliveries
    before = list(ChannelDelivery.objects.values().order_by("pk"))
    assert mod_client.get("/admin/games/channeldelivery/add/").status_code == 403
    change = f"/admin/games/channeldelivery/{feed.pk}/change/"
    assert mod_client.post(change, {"status": "sent", "attempts": 0}).status_code == 403
    delete = f"/admin/games/channeldelivery/{feed.pk}/delete/"
    assert mod_client.post(delete, {"post": "yes"}).status_code == 403
    listing = mod_client.get("/admin/games/channeldelivery/")
    assert not [
        name for name in listing.context["cl"].model_admin.get_actions(listing.wsgi_request)
    ]
    assert list(ChannelDelivery.objects.values().order_by("pk")) == before
    client.force_login(bob)
    response = client.get("/admin/games/channeldelivery/")
    assert response.status_code == 302 and "/admin/login/" in response["Location"]

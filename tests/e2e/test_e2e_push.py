"""The push notifications and webhooks page in the browser: at a phone's width in the
three languages, with a device listed, it does not scroll sideways, axe finds
no serious violation, and the page's script shows the button that asks the
browser for a subscription."""

from __future__ import annotations

import pytest
from playwright.sync_api import expect

from games.correspondence import push
from games.models import NotificationKind, PushSubscription, Webhook
from tests.e2e.helpers import log_in, make_player
from tests.e2e.test_e2e_accessibility import PHONE, serious_violations

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


def test_push_page_at_phone_width_in_three_languages(live_server, window, settings):
    settings.VAPID_KEYS = push.new_vapid_keys()
    settings.WEBHOOKS_ENABLED = True
    base = live_server.url
    user = make_player("pushy")
    PushSubscription.objects.create(
        user=user,
        endpoint="https://fcm.googleapis.com/fcm/send/e2e",
        p256dh="x",
        auth="y",
        kinds=[k.value for k in NotificationKind],
    )
    Webhook.objects.create(
        user=user,
        kind=Webhook.Kind.GENERIC,
        url="https://hooks.example.com/smoki/a-rather-long-path-that-must-not-widen-the-page",
        secret="whsec_" + "A" * 32,
        kinds=[k.value for k in NotificationKind],
    )
    person = window("player")
    log_in(person.page, base, user.username)
    person.page.set_viewport_size(PHONE)
    headings = {"en": "Push notifications", "pl": "Powiadomienia push", "cs": "Push oznámení"}
    for language, heading in headings.items():
        user.profile.language = language
        user.profile.save()
        person.page.goto(f"{base}/profile/push/")
        expect(person.page.locator("h1")).to_have_text(heading)
        expect(person.page.locator("#push-subscribe button")).to_be_visible()
        person.screenshot(f"push-devices-{language}-phone")
        assert serious_violations(person.page) == []
        width = person.page.evaluate("document.documentElement.scrollWidth")
        assert width <= PHONE["width"], f"{language}: the page scrolls sideways ({width} px)"
    person.assert_clean()

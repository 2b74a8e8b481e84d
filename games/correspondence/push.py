"""Delivering a notification to a player's devices by web push (RFC 8030,
encrypted for the device by RFC 8291, signed for the push service by VAPID).

Each ``ChannelDelivery`` row is claimed (``sending``, committed) before the
push service is asked and settled after, each change conditional on the
claim, as an email is (``games.correspondence.delivery``). Retries with the
same back-off; a 404 or 410 answer means the browser dropped the
subscription: it is removed and the row failed for good, as for any other
4xx answer but 429 (too many requests: tried again).

A claim left behind by a worker that died mid-delivery is put back to
``pending`` by ``release_stuck_claims``, not failed as an email is: a
notification is sent with the push ``Topic`` and shown under a tag naming
the row, so if the first one did leave, the second replaces it on the
device instead of showing twice, and if it did not, nothing is lost.

The payload holds only what the email about the same row says (its subject
and sentences, the link, and the player's own first choices): nothing
another seat may not see.
"""

from __future__ import annotations

import base64
import json
import logging
import secrets
import time
from datetime import timedelta
from urllib.parse import urlsplit

from django.conf import settings
from django.db import transaction
from django.db.models import Q
from django.urls import Resolver404, resolve
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.errors import NotFound, ServiceError
from games.correspondence import compose, webhooks
from games.correspondence.delivery import max_attempts, no_longer_true, retry_delay
from games.dispatch import kinds, outbox, quiet
from games.models import (
    Channel,
    ChannelDelivery,
    DeliveryStatus,
    Notification,
    NotificationKind,
    PushSubscription,
    Webhook,
)

logger = logging.getLogger(__name__)

#: A push message's payload is at most 4 KB once encrypted; the body is cut
#: well below that.
BODY_MAX = 600
#: Up to two of the player's choices become the notification's buttons.
ACTIONS_MAX = 2

GONE = "The device's subscription has ended (the push service answered %s); it was removed."
UNSUBSCRIBED = "Not sent: the device was unsubscribed."
OUTDATED = "Not sent: the notification was about an earlier moment."


def allowed_endpoint(url: str) -> bool:
    """Whether ``url`` is the address of a push service the site trusts
    (``PUSH_SERVICES``: origins, a leading ``*.`` for any subdomain). A
    subscription pointing anywhere else would make the worker post to an
    address of the subscriber's choosing."""
    if not isinstance(url, str) or len(url) > 1000:
        return False
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        return False
    host = (parts.hostname or "").lower()
    if parts.scheme not in ("https", "http") or not host or parts.username or parts.password:
        return False
    for origin in settings.PUSH_SERVICES:
        allowed = urlsplit(origin)
        allowed_host = (allowed.hostname or "").lower()
        if allowed.scheme != parts.scheme or allowed.port != port:
            continue
        if origin.startswith(f"{allowed.scheme}://*."):
            suffix = allowed_host.removeprefix("*.")
            if host.endswith("." + suffix):
                return True
        elif host == allowed_host:
            return True
    return False


def deliver_all(notification_id: int) -> list[str]:
    """The pending push deliveries of one notification, each in turn: those
    just written, not those waiting for a retry's back-off."""
    ids = (
        ChannelDelivery.objects.filter(
            notification_id=notification_id, status=DeliveryStatus.PENDING
        )
        .filter(
            Q(attempts=0, next_attempt_at__lte=timezone.now() + outbox.relay_after())
            | Q(next_attempt_at__lte=timezone.now())
        )
        .values_list("pk", flat=True)
    )
    return [deliver(pk) for pk in list(ids)]


def claim(delivery_id: int) -> ChannelDelivery | None:
    """Take a pending row for delivery, in its own committed transaction;
    None if there is nothing to do now. A player's push or chat-app post
    falling inside their quiet hours (a retry, a late hand-over) is left
    pending until they end, as an email is, whatever its email's state."""
    with transaction.atomic():
        row = (
            ChannelDelivery.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("notification__user__profile", "notification__match")
            .filter(pk=delivery_id, status=DeliveryStatus.PENDING)
            .first()
        )
        if row is None:
            return None
        until = _quiet_until(row)
        if until is not None:
            ChannelDelivery.objects.filter(pk=row.pk).update(
                next_attempt_at=until, last_error=quiet.HELD_QUIET
            )
            return None
        row.status = DeliveryStatus.SENDING
        row.attempts += 1
        row.claimed_at = timezone.now()
        row.save(update_fields=["status", "attempts", "claimed_at"])
    return row


def _quiet_until(row: ChannelDelivery):
    """The end of the player's quiet hours if ``row`` must wait for it: a
    push, or a post to a chat app (people read it), of a player's own
    notification. A generic endpoint and a competition's feed never wait."""
    if row.notification is None:
        return None
    until = quiet.hold_until(row.notification.user, timezone.now())
    if until is None:
        return None
    if row.channel == Channel.WEBHOOK:
        kind = Webhook.objects.filter(pk=row.target_id).values_list("kind", flat=True).first()
        if kind not in (Webhook.Kind.DISCORD, Webhook.Kind.SLACK):
            return None
    return until


TURNED_OFF = "Not sent: the player turned this event off for this channel."


def deliver(delivery_id: int) -> str:
    """Send one delivery (a device's push or a webhook's post) at most once
    per claim. Returns what happened; never raises for the answer."""
    row = claim(delivery_id)
    if row is None:
        return "nothing to do"
    note = row.notification
    model = Webhook if row.channel == Channel.WEBHOOK else PushSubscription
    target = model.objects.filter(pk=row.target_id).first()
    if target is None:
        return _settle(row, DeliveryStatus.SKIPPED, UNSUBSCRIBED)
    if note is not None:
        if note.version != row.version or note.tag != row.tag:
            return _settle(row, DeliveryStatus.SKIPPED, OUTDATED)
        if note.match_id is not None and no_longer_true(note):
            return _settle(row, DeliveryStatus.SKIPPED, OUTDATED)
        if kinds.event_of(note.kind) not in note.user.profile.channel_events(row.channel):
            return _settle(row, DeliveryStatus.SKIPPED, TURNED_OFF)
    try:
        if row.channel == Channel.WEBHOOK:
            post_to(target, note, row)
        else:
            send(target, payload(note), topic=f"n{row.pk}")
    except PushRefused as refusal:
        if refusal.status in (404, 410) and row.channel == Channel.PUSH:
            target.delete()
            return _settle(row, DeliveryStatus.FAILED, GONE % refusal.status)
        if 300 <= refusal.status < 500 and refusal.status != 429:
            return _settle(row, DeliveryStatus.FAILED, f"Refused for good: {refusal}"[:2000])
        return _retry(row, str(refusal))
    except webhooks.Unsafe as refusal:
        return _settle(row, DeliveryStatus.FAILED, f"Refused for good: {refusal}"[:2000])
    except Exception as error:  # a timeout, a lost connection
        return _retry(row, f"{type(error).__name__}: {error}"[:2000])
    now = timezone.now()
    ChannelDelivery.objects.filter(
        pk=row.pk, status=DeliveryStatus.SENDING, claimed_at=row.claimed_at
    ).update(status=DeliveryStatus.SENT, sent_at=now, last_error="", next_attempt_at=None)
    model.objects.filter(pk=target.pk).update(last_success_at=now)
    return DeliveryStatus.SENT


def post_to(hook: Webhook, note: Notification | None, row: ChannelDelivery, **options) -> None:
    """Post ``note`` (or, for a competition's feed, the row's own ``event``)
    to ``hook``, through the guard of ``webhooks.post``. No move links: a
    webhook's messages may be read by others (a shared Discord channel),
    and a one-move link moves for whoever follows it."""
    if note is None:
        event = {
            key: str((row.event or {}).get(key, "")) for key in ("type", "title", "text", "url")
        }
    else:
        data = payload(note, with_actions=False)
        event = {
            "type": note.kind,
            "title": data["title"],
            "text": data["body"],
            "url": data["url"],
        }
    body, headers = webhooks.message(
        hook.kind, event, secret=hook.secret, msg_id=f"msg_{row.pk}_v{row.version}{row.tag}"
    )
    status, answer = webhooks.post(hook.url, body, headers, **options)
    if not 200 <= status < 300:
        raise PushRefused(status, answer.decode(errors="replace")[:300])


def payload(note: Notification, *, with_actions: bool = True) -> dict:
    """What the device shows, in the player's language: the email's subject
    and sentences, where tapping leads and, for "your turn", up to two of the
    player's own choices, each opening its signed confirmation page.
    ``with_actions`` False (a webhook's post, which never carries move
    links): the choices are not worked out at all, the costliest part."""
    profile = note.user.profile
    with translation.override(profile.language), timezone.override(profile.timezone):
        context = compose.message_context(note)
        choices = compose.email_choices(note) if with_actions and _few_moves(note) else []
    url = context.get("match_url") or kinds.absolute(kinds.link_of(note))
    body = " ".join(str(line) for line in context.get("lines", []))
    return {
        "title": " ".join(str(context["subject"]).split()),
        "body": body[:BODY_MAX],
        "url": url,
        "tag": f"smoki-{note.pk}",
        "actions": actions(choices),
    }


def _few_moves(note: Notification) -> bool:
    """Whether the player's turn may offer buttons at all: at most
    ``ACTIONS_MAX`` legal actions. Buttons are whole moves only, each one
    legal action, so with more actions there are none, and the choices are
    not worked out (the player's view and its choice tree are most of a
    push's cost). One query for the player's seat."""
    from games.engine import registry
    from games.models import MatchStatus

    match = note.match
    if (
        note.kind != NotificationKind.YOUR_TURN
        or match is None
        or match.status != MatchStatus.ACTIVE
        or match.version != note.version
        or match.state is None
    ):
        return False
    seat = match.seats.filter(user_id=note.user_id).values_list("index", flat=True).first()
    if seat is None:
        return False
    game = registry.get(match.game_key)
    if seat not in game.current_seats(match.state):
        return False
    return len(game.legal_actions(match.state, seat)) <= ACTIONS_MAX


def _confirmation_page(link: str) -> bool:
    try:
        return resolve(urlsplit(link).path).url_name == "email_move"
    except Resolver404:
        return False


def actions(choices: list[tuple[str, str]]) -> list[dict]:
    """The notification's buttons: the player's whole choice when it is one
    step among at most ``ACTIONS_MAX`` moves, each opening its signed
    confirmation page; none otherwise (two buttons out of many would hide
    the rest, and a first step of a longer move needs the board)."""
    if not choices or len(choices) > ACTIONS_MAX:
        return []
    if not all(_confirmation_page(link) for _label, link in choices):
        return []
    return [
        {"action": f"choice-{i}", "title": str(label)[:60], "url": link}
        for i, (label, link) in enumerate(choices)
    ]


class PushRefused(Exception):
    def __init__(self, status: int, text: str):
        super().__init__(f"{status} {text}"[:500])
        self.status = status


def send(device: PushSubscription, data: dict, *, topic: str) -> None:
    """Encrypt ``data`` for ``device`` and post it to its push service."""
    from pywebpush import WebPushException, webpush

    if not allowed_endpoint(device.endpoint):
        raise PushRefused(403, "the endpoint is not a trusted push service")
    try:
        webpush(
            subscription_info={
                "endpoint": device.endpoint,
                "keys": {"p256dh": device.p256dh, "auth": device.auth},
            },
            data=json.dumps(data, ensure_ascii=False),
            vapid_private_key=settings.VAPID_KEYS["private"],
            vapid_claims={"sub": settings.VAPID_SUBJECT},
            timeout=settings.PUSH_TIMEOUT_SECONDS,
            ttl=int(timedelta(days=1).total_seconds()),
            headers={"Topic": topic, "Urgency": "normal"},
        )
    except WebPushException as error:
        response = error.response
        if response is None:
            raise
        raise PushRefused(response.status_code, response.text[:300]) from error


def _settle(row: ChannelDelivery, status: str, error: str, next_at=None) -> str:
    changed = ChannelDelivery.objects.filter(
        pk=row.pk, status=DeliveryStatus.SENDING, claimed_at=row.claimed_at
    ).update(status=status, last_error=error, next_attempt_at=next_at)
    if not changed:
        logger.warning("push delivery %s: claim released meanwhile, left as it is", row.pk)
    return status


def _retry(row: ChannelDelivery, error: str) -> str:
    if row.attempts >= max_attempts():
        logger.error("push delivery %s failed for good: %s", row.pk, error)
        return _settle(row, DeliveryStatus.FAILED, error)
    logger.warning("push delivery %s attempt %s failed: %s", row.pk, row.attempts, error)
    return _settle(row, DeliveryStatus.PENDING, error, timezone.now() + retry_delay(row.attempts))


def release_stuck_claims(now=None) -> int:
    """Put claims of workers that died mid-delivery back to ``pending``: sent
    again, a notification replaces its twin on the device (module docstring)."""
    now = now or timezone.now()
    stuck = now - timedelta(seconds=settings.SMOKI["STUCK_AFTER_SECONDS"])
    return ChannelDelivery.objects.filter(
        status=DeliveryStatus.SENDING, claimed_at__lt=stuck
    ).update(status=DeliveryStatus.PENDING, claimed_at=None, next_attempt_at=now)


def new_webhook_secret() -> str:
    """A Standard Webhooks signing secret: ``whsec_`` and 24 random bytes in
    standard base64. Not base64url: receivers decode it with the standard
    alphabet, which drops ``-`` and ``_`` and then finds the length wrong."""
    return "whsec_" + base64.b64encode(secrets.token_bytes(24)).decode()


def new_vapid_keys() -> dict:
    """A fresh VAPID key pair, base64url: the raw private number and the
    uncompressed public point (what a browser's ``applicationServerKey`` takes)."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    raw = key.private_numbers().private_value.to_bytes(32, "big")
    public = key.public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
    )

    def b64(data: bytes) -> str:
        return base64.urlsafe_b64encode(data).rstrip(b"=").decode()

    return {"private": b64(raw), "public": b64(public)}


# -- A player's devices --------------------------------------------------------------


#: The kinds a device may ask for, as (kind, label) pairs: the match kinds and
#: the kinds of news the apps registered (tournament rounds, ...).
def device_kinds() -> list[tuple[str, str]]:
    return [(k.value, str(k.label)) for k in NotificationKind] + kinds.news_kinds()


MAX_DEVICES = 10


def _key(value, size: int) -> bytes | None:
    if not isinstance(value, str) or len(value) > 200:
        return None
    try:
        data = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except ValueError:
        return None
    return data if len(data) == size else None


def subscribe(user, endpoint, p256dh, auth) -> PushSubscription:
    """Turn push on for one of ``user``'s devices (the browser's subscription),
    with every kind wanted; the same endpoint again renews its keys."""

    if not settings.VAPID_KEYS["private"]:
        raise ServiceError(_("Push notifications are not available on this site."))
    if not allowed_endpoint(endpoint):
        raise ServiceError(_("This browser's push service is not one Smoki can reach."))
    public = _key(p256dh, 65)
    if public is None or public[0] != 4 or _key(auth, 16) is None:
        raise ServiceError(_("The browser sent keys Smoki cannot use."))
    with transaction.atomic():
        theirs = PushSubscription.objects.select_for_update().filter(endpoint=endpoint).first()
        if theirs is not None:
            theirs.delete()  # a device changes hands: the new player's now
        if PushSubscription.objects.filter(user=user).count() >= MAX_DEVICES:
            raise ServiceError(_("Remove a device before adding another."))
        return PushSubscription.objects.create(
            user=user,
            endpoint=endpoint,
            p256dh=p256dh,
            auth=auth,
            kinds=[kind for kind, _label in device_kinds()],
        )


def set_kinds(user, device_id, wanted) -> None:
    """Which kinds one of ``user``'s devices gets (unknown kinds ignored)."""

    known = [kind for kind, _label in device_kinds()]
    changed = PushSubscription.objects.filter(pk=_id(device_id), user=user).update(
        kinds=[kind for kind in known if kind in set(wanted)]
    )
    if not changed:
        raise NotFound(_("No such device."))


def remove(user, device_id) -> None:
    """Turn push off for one of ``user``'s devices."""

    deleted, _rows = PushSubscription.objects.filter(pk=_id(device_id), user=user).delete()
    if not deleted:
        raise NotFound(_("No such device."))


def _id(value) -> int:
    try:
        return int(value) if 0 < int(value) < 2**31 else 0
    except (TypeError, ValueError):
        return 0


# -- A player's webhooks -----------------------------------------------------------------

MAX_WEBHOOKS = 5


def add_webhook(user, kind, url, *, personal: bool = True, count=None) -> Webhook:
    """A new webhook of ``user``'s, with every kind wanted and, for a generic
    one, a fresh signing secret. Refused unless webhooks are on and the
    address passes the guard now (it is checked again on every post).
    ``personal`` False: an organiser's webhook on a competition, counted
    against ``count`` (that competition's webhooks) instead of the player's."""
    if not settings.WEBHOOKS_ENABLED:
        raise ServiceError(_("Webhooks are not available on this site."))
    if kind not in Webhook.Kind.values:
        raise ServiceError(_("Choose Discord, Slack or generic."))
    try:
        host, port, _path = webhooks.check_url(url)
        webhooks.resolve_public(host, port)
    except webhooks.Unsafe:
        raise ServiceError(
            _("Only https addresses on the public internet can receive webhooks.")
        ) from None
    if count is None:
        count = Webhook.objects.filter(user=user, personal=True)
    if count.count() >= MAX_WEBHOOKS:
        raise ServiceError(_("Remove a webhook before adding another."))
    secret = new_webhook_secret()
    return Webhook.objects.create(
        user=user,
        kind=kind,
        url=url.strip(),
        secret=secret,
        kinds=[k for k, _label in device_kinds()] if personal else [],
        personal=personal,
    )


def _webhook_of(user, webhook_id) -> Webhook:
    hook = Webhook.objects.filter(pk=_id(webhook_id), user=user, personal=True).first()
    if hook is None:
        raise NotFound(_("No such webhook."))
    return hook


def set_webhook_kinds(user, webhook_id, wanted) -> None:
    known = [kind for kind, _label in device_kinds()]
    hook = _webhook_of(user, webhook_id)
    Webhook.objects.filter(pk=hook.pk).update(kinds=[k for k in known if k in set(wanted)])


def remove_webhook(user, webhook_id) -> None:
    _webhook_of(user, webhook_id).delete()


def send_test(user, webhook_id) -> str:
    """Post a test event to one of ``user``'s own webhooks now."""
    return test_post(_webhook_of(user, webhook_id))


def test_post(hook: Webhook) -> str:
    """Post a test event to ``hook`` now (the short timeout bounds the wait).
    Returns what the endpoint answered, or raises why it could not be posted to."""
    event = {
        "type": "test",
        "title": str(_("Smoki test message")),
        "text": str(_("This webhook works.")),
        "url": kinds.absolute("/"),
    }
    body, headers = webhooks.message(
        hook.kind, event, secret=hook.secret, msg_id=f"msg_test_{hook.pk}_{int(time.time())}"
    )
    try:
        status, _answer = webhooks.post(hook.url, body, headers)
    except webhooks.Unsafe:
        raise ServiceError(
            _("Only https addresses on the public internet can receive webhooks.")
        ) from None
    except OSError as error:
        raise ServiceError(
            _("The endpoint could not be reached: %(error)s") % {"error": error}
        ) from None
    if not 200 <= status < 300:
        raise ServiceError(_("The endpoint answered %(status)s.") % {"status": status})
    Webhook.objects.filter(pk=hook.pk).update(last_success_at=timezone.now())
    return str(_("The endpoint answered %(status)s.") % {"status": status})


def recent_deliveries(hook_ids: list[int], per_hook: int = 5) -> dict[int, list[ChannelDelivery]]:
    """The last deliveries of each webhook, newest first (one query)."""
    found: dict[int, list[ChannelDelivery]] = {pk: [] for pk in hook_ids}
    rows = ChannelDelivery.objects.filter(channel=Channel.WEBHOOK, target_id__in=hook_ids).order_by(
        "-created_at"
    )[: per_hook * max(len(hook_ids), 1) * 4]
    for row in rows:
        if len(found[row.target_id]) < per_hook:
            found[row.target_id].append(row)
    return found

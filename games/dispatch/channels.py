"""The channels besides email (web push, webhooks): one outbox row per
notification and device or webhook, written in the notification's own
transaction.

Which events go to a player's devices and webhooks at all is the
notifications page's grid (``Profile.push_events``, ``webhook_events``);
each device and webhook narrows it by its own ``kinds``. For each
notification row written or brought up to date, a ``ChannelDelivery`` row is
written per target that wants it, unique per (notification, channel, target,
version, tag), so an event exists once on a device however often it is
queued. After the commit the notification's deliveries are handed to a
worker on the ``mail`` queue; the outbox relay hands over again what the
broker lost. Delivery is ``games.correspondence.push``'s.

The email's choice does not govern push: a row skipped for email because
the player chose "never" or has no address is still pushed if the grid
says so, while a row skipped because the player was looking at the match,
or because another notice of the same moment says it, is not pushed
either. Inside the player's quiet hours a push or a chat-app post waits for
their end, whatever became of the email.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.conf import settings
from django.db.models import CharField, F, Value
from django.utils import timezone

from games.dispatch import kinds, outbox, quiet
from games.models import Channel, ChannelDelivery, PushSubscription, Webhook

DELIVER_PUSHES = "games.tasks.deliver_pushes"


@dataclass(frozen=True)
class Written:
    """A notification row as written: what its deliveries need."""

    pk: int
    user_id: int
    kind: str
    version: int
    tag: str
    pushable: bool
    # The end of the player's quiet hours when the row is written inside
    # them (``games.dispatch.quiet``), whatever becomes of its email: its
    # pushes and chat-app posts wait that long.
    held_until: datetime | None = None


def push_enabled() -> bool:
    return bool(settings.VAPID_KEYS["private"])


#: Webhooks read by people in a chat app: quiet hours hold them as they
#: hold a push. A generic endpoint is a program of the player's: posted at once.
CHAT_APPS = frozenset({Webhook.Kind.DISCORD, Webhook.Kind.SLACK})


@dataclass(frozen=True)
class _Target:
    channel: str
    pk: int
    kinds: list
    events: list
    held_by_quiet: bool


def _targets(user_ids: set[int]) -> dict[int, list[_Target]]:
    """Each player's devices and own webhooks, with the events the player
    wants on that channel (the preferences grid), in one query; none
    without VAPID keys and with webhooks off. An organiser's webhook on a
    tournament is not the organiser's own and is left out."""
    parts = []
    if push_enabled():
        parts.append(
            PushSubscription.objects.filter(user_id__in=user_ids)
            .annotate(
                channel=Value(Channel.PUSH, output_field=CharField()),
                hook_kind=Value("", output_field=CharField()),
            )
            .values_list(
                "channel", "pk", "user_id", "kinds", "user__profile__push_events", "hook_kind"
            )
        )
    if settings.WEBHOOKS_ENABLED:
        parts.append(
            Webhook.objects.filter(user_id__in=user_ids, personal=True)
            .annotate(
                channel=Value(Channel.WEBHOOK, output_field=CharField()),
                hook_kind=F("kind"),
            )
            .values_list(
                "channel", "pk", "user_id", "kinds", "user__profile__webhook_events", "hook_kind"
            )
        )
    if not parts:
        return {}
    query = parts[0].union(*parts[1:], all=True) if len(parts) > 1 else parts[0]
    targets: dict[int, list[_Target]] = {}
    for channel, pk, user_id, wanted, events, hook_kind in query:
        held = channel == Channel.PUSH or hook_kind in CHAT_APPS
        targets.setdefault(user_id, []).append(
            _Target(channel, pk, wanted or [], events if isinstance(events, list) else [], held)
        )
    return targets


def fan_out(rows: list[Written]) -> int:
    """Write the deliveries of ``rows`` to their players' devices and webhooks
    (one query for those, one insert if any wants them) and hand them over
    after the commit. A row goes to a target only if the player wants its
    event on that channel (``Profile.push_events``, ``webhook_events``) and
    the target wants its kind. Inside the player's quiet hours a push or a
    chat-app post waits for their end, with no hand-over, and the relay
    delivers it then. Returns how many rows were written."""
    rows = [row for row in rows if row.pushable]
    if not rows:
        return 0
    targets = _targets({row.user_id for row in rows})
    if not targets:
        return 0
    later = timezone.now() + outbox.relay_after()
    deliveries = []
    now_due: set[int] = set()
    for row in rows:
        event = kinds.event_of(row.kind)
        for target in targets.get(row.user_id, []):
            if row.kind not in target.kinds or event not in target.events:
                continue
            held = row.held_until if target.held_by_quiet else None
            if held is None:
                now_due.add(row.pk)
            deliveries.append(
                ChannelDelivery(
                    notification_id=row.pk,
                    channel=target.channel,
                    target_id=target.pk,
                    version=row.version,
                    tag=row.tag,
                    next_attempt_at=held or later,
                    last_error=quiet.HELD_QUIET if held else "",
                )
            )
    if not deliveries:
        return 0
    ChannelDelivery.objects.bulk_create(deliveries, ignore_conflicts=True)
    for pk in sorted(now_due):
        outbox.hand_over_after_commit(DELIVER_PUSHES, pk)
    return len(deliveries)

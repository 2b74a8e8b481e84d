"""The daily digest: one email listing the matches waiting for a player, most
urgent first, instead of one email per event."""

from __future__ import annotations

import logging

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation

from games.correspondence import compose, delivery
from games.dispatch import quiet
from games.lobby import listings
from games.models import DeliveryStatus, Notification, NotificationKind
from games.panel.formats import local_moment

logger = logging.getLogger(__name__)


def users_with_digest() -> list[int]:
    return list(
        Notification.objects.filter(status=DeliveryStatus.DIGEST)
        .values_list("user_id", flat=True)
        .distinct()
    )


def send_all() -> int:
    return sum(1 for user_id in users_with_digest() if send_for_user(user_id))


def send_for_user(user_id: int) -> bool:
    """Claim the user's digest rows, then send one email about them.

    Claimed rows are committed as ``in_digest`` (with the claim's time) before
    sending, so a rerun never sends the same digest twice; ``sent_at`` is
    written once the mail server took it. A mail error puts the rows back
    with a retry time the outbox relay honours (back-off as for single
    emails); a worker killed mid-send leaves ``in_digest`` rows with no
    ``sent_at``, which ``release_stuck_claims`` reports as failed.
    Every change is conditional on the claim, so a released claim stays so.
    """
    with transaction.atomic():
        rows = list(
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("match", "user__profile")
            .filter(user_id=user_id, status=DeliveryStatus.DIGEST)
            .order_by("pk")
        )
        if not rows:
            return False
        now = timezone.now()
        profile = rows[0].user.profile
        until = quiet.quiet_until(profile, now)
        if until is not None:
            # The digest comes after the player's quiet hours: the relay
            # hands it over when they end.
            Notification.objects.filter(pk__in=[r.pk for r in rows]).update(next_attempt_at=until)
            return False
        Notification.objects.filter(pk__in=[r.pk for r in rows]).update(
            status=DeliveryStatus.IN_DIGEST, claimed_at=now, attempts=F("attempts") + 1
        )
    claimed = Notification.objects.filter(
        pk__in=[r.pk for r in rows], status=DeliveryStatus.IN_DIGEST, claimed_at=now
    )
    user = get_user_model().objects.select_related("profile").get(pk=user_id)
    try:
        build_digest(user, rows).send()
    except Exception as error:
        attempts = max(row.attempts for row in rows) + 1
        permanent = delivery.permanent_refusal(error)
        give_up = bool(permanent) or attempts >= delivery.max_attempts()
        reason = (
            f"Refused for good by the mail server: {permanent}"
            if permanent
            else f"{type(error).__name__}: {error}"
        )
        claimed.update(
            status=DeliveryStatus.FAILED if give_up else DeliveryStatus.DIGEST,
            last_error=reason[:2000],
            next_attempt_at=None if give_up else now + delivery.retry_delay(attempts),
        )
        logger.warning("digest for user %s failed (attempt %s): %s", user_id, attempts, error)
        return False
    claimed.update(sent_at=timezone.now(), last_error="", next_attempt_at=None)
    return True


def build_digest(user, rows):
    profile = user.profile
    unsubscribe = compose.absolute(
        reverse("unsubscribe", args=[compose.unsubscribe_token(user, "all")])
    )
    with translation.override(profile.language), timezone.override(profile.timezone):
        waiting = [
            {
                "match": row.match,
                "title": row.title,
                "url": compose.absolute(reverse("match_detail", args=[row.match.pk])),
                "deadline": local_moment(row.match.deadline),
                "cid": f"board-{row.match.pk}@smoki",
            }
            for row in listings.my_matches(user)
            if row.my_turn
        ]
        pictures = {}
        for item in waiting[:DIGEST_PICTURES]:
            png = _picture(item["match"], user)
            if png:
                pictures[item["cid"]] = png
            else:
                item["cid"] = ""
        for item in waiting[DIGEST_PICTURES:]:
            item["cid"] = ""
        news = [
            compose.message_context(row)["subject"]
            for row in rows
            if row.kind not in ("your_turn", "reminder")
        ]
        context = {
            "name": profile.name,
            "waiting": waiting,
            "news": news,
            "unsubscribe_url": unsubscribe,
            "preferences_url": compose.absolute(reverse("notification_settings")),
        }
        subject = translation.gettext("Your daily Smoki digest")
        text = render_to_string("emails/digest.txt", context)
        html = render_to_string("emails/digest.html", context)
    message = compose.make_message(user, subject, text, html, unsubscribe, f"digest-{user.pk}")
    for cid, png in pictures.items():
        compose.attach_inline_png(message, png, cid)
    return message


# The most urgent waiting matches get a small picture of their board each.
DIGEST_PICTURES = 8
DIGEST_PICTURE_WIDTH = 240


def _picture(match, user) -> bytes | None:
    row = Notification(user=user, match=match, kind=NotificationKind.YOUR_TURN)
    return compose.board_picture_of(row, width=DIGEST_PICTURE_WIDTH)

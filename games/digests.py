"""The daily digest: one email listing the matches waiting for a player, most
urgent first, instead of one email per event."""

from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db import transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import formats, timezone, translation

from games import notifications, selectors
from games.models import DeliveryStatus, Notification


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

    Claimed rows are committed as ``in_digest`` before sending, so a rerun
    never sends the same digest twice; a mail error puts them back.
    """
    with transaction.atomic():
        rows = list(
            Notification.objects.select_for_update(skip_locked=True, of=("self",))
            .select_related("match")
            .filter(user_id=user_id, status=DeliveryStatus.DIGEST)
        )
        if not rows:
            return False
        now = timezone.now()
        Notification.objects.filter(pk__in=[r.pk for r in rows]).update(
            status=DeliveryStatus.IN_DIGEST, claimed_at=now
        )
    user = get_user_model().objects.select_related("profile").get(pk=user_id)
    try:
        build_digest(user, rows).send()
    except Exception as error:
        Notification.objects.filter(pk__in=[r.pk for r in rows]).update(
            status=DeliveryStatus.DIGEST, last_error=f"{type(error).__name__}: {error}"[:2000]
        )
        raise
    Notification.objects.filter(pk__in=[r.pk for r in rows]).update(sent_at=timezone.now())
    return True


def build_digest(user, rows):
    profile = user.profile
    unsubscribe = notifications.absolute(
        reverse("unsubscribe", args=[notifications.unsubscribe_token(user, "all")])
    )
    with translation.override(profile.language), timezone.override(profile.timezone):
        waiting = [
            {
                "match": row.match,
                "title": row.title,
                "url": notifications.absolute(reverse("match_detail", args=[row.match.pk])),
                "deadline": formats.date_format(
                    timezone.localtime(row.match.deadline), "DATETIME_FORMAT"
                )
                if row.match.deadline
                else "",
            }
            for row in selectors.my_matches(user)
            if row.my_turn
        ]
        news = [
            notifications.message_context(row)["subject"]
            for row in rows
            if row.kind not in ("your_turn", "reminder")
        ]
        context = {
            "name": profile.name,
            "waiting": waiting,
            "news": news,
            "unsubscribe_url": unsubscribe,
            "preferences_url": notifications.absolute(reverse("profile")),
        }
        subject = translation.gettext("Your daily Smoki digest")
        text = render_to_string("emails/digest.txt", context)
        html = render_to_string("emails/digest.html", context)
    return notifications.make_message(user, subject, text, html, unsubscribe, f"digest-{user.pk}")

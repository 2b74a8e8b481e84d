"""A tournament's feed to its organiser's webhooks: a round started, a
round's results, the end (and a cancellation), posted to a Discord or Slack
channel or signed for a generic endpoint the Standard Webhooks way.

An organiser adds a webhook on the tournament's page (``add_hook``); it is a
``games.Webhook`` that is not personal (it never gets the organiser's own
news), linked to the tournament by ``TournamentWebhook``. Each event of the
feed is one ``ChannelDelivery`` per webhook, without a notification: its
words are kept on the row (``event``), composed when the event happens in
the organiser's language, and it is delivered, retried and settled by the
same code as a player's pushes and posts (``games.correspondence.push``),
once per (webhook, round, event) however often it is written.

A feed says only what the tournament's page shows everyone: names, tables,
points and places, never anything of a match's hidden state.
"""

from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from core.errors import Forbidden, NotFound
from games.correspondence import push
from games.dispatch import kinds, outbox
from games.models import Channel, ChannelDelivery, DeliveryStatus, Webhook
from tournaments.models import Placement, Tournament, TournamentWebhook

ROUND_STARTED = "tournament.round_started"
ROUND_RESULTS = "tournament.round_results"
FINISHED = "tournament.finished"
CANCELLED = "tournament.cancelled"

#: The feed's text is cut here: a Discord message holds 2,000 characters.
TEXT_MAX = 1500

DELIVER = "games.tasks.deliver_push"


# -- What the feed says ----------------------------------------------------------------------


def _page(tournament: Tournament) -> str:
    return kinds.absolute(reverse("tournament_detail", args=[tournament.pk]))


def _points(points) -> str:
    return "…" if points is None else f"{points:g}"


def _tables(tournament: Tournament, number: int) -> list[list[Placement]]:
    """The round's tables in order, each its placements in seat order (one query)."""
    tables: dict[int, list[Placement]] = {}
    for placement in (
        Placement.objects.filter(round__tournament=tournament, round__number=number)
        .select_related("entrant__user__profile")
        .order_by("table", "seat")
    ):
        tables.setdefault(placement.table, []).append(placement)
    return [tables[table] for table in sorted(tables)]


def round_started_event(tournament: Tournament, number: int) -> dict:
    """A round's start: who sits at which table, in the active language."""
    what = {"name": tournament.name, "round": number}
    lines = []
    for table in _tables(tournament, number):
        names = ", ".join(p.entrant.user.profile.name for p in table)
        if table[0].is_bye:
            lines.append(_("Bye: %(names)s") % {"names": names})
        else:
            lines.append(
                _("Table %(table)s: %(names)s") % {"table": table[0].table, "names": names}
            )
    return {
        "type": ROUND_STARTED,
        "title": str(_("Round %(round)s of %(name)s has started") % what),
        "text": "\n".join(lines)[:TEXT_MAX],
        "url": _page(tournament),
    }


def round_results_event(tournament: Tournament, number: int) -> dict:
    """A round's results: each table's players with their points, best first."""
    what = {"name": tournament.name, "round": number}
    lines = []
    for table in _tables(tournament, number):
        ordered = sorted(table, key=lambda p: (p.rank or 99, p.seat))
        names = ", ".join(
            f"{p.entrant.user.profile.name} {_points(p.points)}" for p in ordered if not p.is_bye
        )
        if table[0].is_bye:
            line = _("Bye: %(names)s") % {
                "names": ", ".join(p.entrant.user.profile.name for p in table)
            }
        elif table[0].aborted:
            line = _("Table %(table)s: cancelled by a moderator") % {"table": table[0].table}
        else:
            line = _("Table %(table)s: %(names)s") % {"table": table[0].table, "names": names}
        lines.append(line)
    return {
        "type": ROUND_RESULTS,
        "title": str(_("Results of round %(round)s of %(name)s") % what),
        "text": "\n".join(str(line) for line in lines)[:TEXT_MAX],
        "url": _page(tournament),
    }


def finished_event(tournament: Tournament, final: dict) -> dict:
    """The end: the winners and the top of the final table (``services.final_table``)."""
    what = {"name": tournament.name, "names": ", ".join(final["winners"])}
    lines = [str(_("Won by %(names)s") % what)]
    lines += [f"{place}. {name} {points}" for place, name, points in final["table"]]
    return {
        "type": FINISHED,
        "title": str(_("%(name)s has ended") % what),
        "text": "\n".join(lines)[:TEXT_MAX],
        "url": _page(tournament),
    }


def cancelled_event(tournament: Tournament) -> dict:
    return {
        "type": CANCELLED,
        "title": str(_("%(name)s was cancelled") % {"name": tournament.name}),
        "text": tournament.cancel_reason[:TEXT_MAX],
        "url": _page(tournament),
    }


# -- Writing it to the outbox ------------------------------------------------------------------


def _language(tournament: Tournament) -> str:
    organiser = tournament.created_by
    profile = getattr(organiser, "profile", None) if organiser is not None else None
    return profile.language if profile is not None else settings.LANGUAGE_CODE


def publish(tournament: Tournament, words, *, version: int, tag: str) -> int:
    """Write one delivery of the event ``words(tournament)`` gives to each of
    the tournament's webhooks, in the caller's transaction, and hand them
    over after the commit. Once per (webhook, version, tag): writing it
    again changes nothing. Returns how many were written (0 without
    webhooks, in one query)."""
    if not settings.WEBHOOKS_ENABLED:
        return 0
    hooks = list(
        TournamentWebhook.objects.filter(tournament=tournament).values_list("webhook_id", flat=True)
    )
    if not hooks:
        return 0
    with translation.override(_language(tournament)):
        event = {key: str(value) for key, value in words(tournament).items()}
    later = timezone.now() + outbox.relay_after()
    ChannelDelivery.objects.bulk_create(
        [
            ChannelDelivery(
                notification=None,
                event=event,
                channel=Channel.WEBHOOK,
                target_id=hook,
                version=version,
                tag=tag,
                next_attempt_at=later,
            )
            for hook in hooks
        ],
        ignore_conflicts=True,
    )
    fresh = ChannelDelivery.objects.filter(
        notification__isnull=True,
        channel=Channel.WEBHOOK,
        target_id__in=hooks,
        version=version,
        tag=tag,
        status=DeliveryStatus.PENDING,
        attempts=0,
    ).values_list("pk", flat=True)
    ids = list(fresh)
    for pk in ids:
        outbox.hand_over_after_commit(DELIVER, pk)
    return len(ids)


def round_started(tournament: Tournament, number: int) -> None:
    """A round began (the round's tables are written): its results of the
    round before first, then the new tables."""
    if number > 1:
        round_ended(tournament, number - 1)
    publish(
        tournament,
        lambda t: round_started_event(t, number),
        version=number,
        tag=f"start-r{number}"[:16],
    )


def round_ended(tournament: Tournament, number: int) -> None:
    if number < 1:
        return
    publish(
        tournament,
        lambda t: round_results_event(t, number),
        version=number,
        tag=f"results-r{number}"[:16],
    )


def finished(tournament: Tournament, final: dict) -> None:
    round_ended(tournament, tournament.current_round)
    publish(tournament, lambda t: finished_event(t, final), version=0, tag="end")


def cancelled(tournament: Tournament) -> None:
    publish(tournament, cancelled_event, version=0, tag="cancel")


# -- The organiser's webhooks ------------------------------------------------------------------


def _organised(user, tournament: Tournament) -> None:
    if user is None or not user.is_authenticated or tournament.created_by_id != user.pk:
        raise Forbidden(_("Only the tournament's organiser can change its webhooks."))


def add_hook(user, tournament: Tournament, kind, url) -> Webhook:
    """The organiser adds a webhook to their tournament (the guard and the
    limits of a player's webhooks: ``push.add_webhook``)."""
    _organised(user, tournament)
    with transaction.atomic():
        hook = push.add_webhook(
            user,
            kind,
            url,
            personal=False,
            count=Webhook.objects.filter(tournament_link__tournament=tournament),
        )
        TournamentWebhook.objects.create(tournament=tournament, webhook=hook)
    return hook


def _hook_of(user, tournament: Tournament, hook_id) -> Webhook:
    _organised(user, tournament)
    try:
        pk = int(hook_id)
    except (TypeError, ValueError):
        pk = 0
    hook = Webhook.objects.filter(
        pk=pk if 0 < pk < 2**31 else 0, tournament_link__tournament=tournament
    ).first()
    if hook is None:
        raise NotFound(_("No such webhook."))
    return hook


def remove_hook(user, tournament: Tournament, hook_id) -> None:
    _hook_of(user, tournament, hook_id).delete()


def test_hook(user, tournament: Tournament, hook_id) -> str:
    """Post a test message now; what the endpoint answered."""
    return push.test_post(_hook_of(user, tournament, hook_id))


def page_hooks(tournament: Tournament, viewer) -> list[dict] | None:
    """The organiser's webhooks with their last deliveries (two queries), or
    None for anyone else or with webhooks off (the section is not shown)."""
    if not settings.WEBHOOKS_ENABLED:
        return None
    if viewer is None or not viewer.is_authenticated or tournament.created_by_id != viewer.pk:
        return None
    hooks = list(
        Webhook.objects.filter(tournament_link__tournament=tournament).order_by("created_at")
    )
    recent = push.recent_deliveries([hook.pk for hook in hooks])
    return [{"hook": hook, "recent": recent[hook.pk]} for hook in hooks]


def webhook_kinds() -> list[tuple[str, str]]:
    """The kinds of endpoint offered, as (value, label) pairs."""
    return [(value, str(label)) for value, label in Webhook.Kind.choices]


def may_add(hooks: list[dict] | None) -> bool:
    return hooks is not None and len(hooks) < push.MAX_WEBHOOKS

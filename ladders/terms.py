"""What a challenge says where its invitation shows (the email, the bell and
the lobby): that it is a ladder's challenge, by when it must be answered,
and what accepting, declining and not answering do. Registered with the
invitations (``games.lobby.invitations.register_terms``) when the app
starts; worded in the reader's language and zone when drawn."""

from __future__ import annotations

from django.conf import settings
from django.db.models import Count, IntegerField, OuterRef, Subquery
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from games.engine import registry
from games.lobby import invitations
from games.panel.formats import local_moment, one_full_stop
from ladders.models import Challenge, Entry


def register() -> None:
    invitations.register_terms(challenge_terms)


def challenge_terms(invitee, match_ids: list[int]) -> dict[int, invitations.Terms]:
    """The terms of each challenge to ``invitee`` among ``match_ids`` (one query)."""
    above = (
        Entry.objects.filter(ladder=OuterRef("ladder"), rung__lt=OuterRef("rung"))
        .values("ladder")
        .annotate(n=Count("id"))
        .values("n")[:1]
    )
    place = Subquery(
        Entry.objects.filter(ladder=OuterRef("ladder"), user=OuterRef("challenged"))
        .annotate(above=Subquery(above, output_field=IntegerField()))
        .values("above")[:1],
        output_field=IntegerField(),
    )
    challenges = (
        Challenge.objects.filter(match_id__in=match_ids, challenged=invitee)
        .select_related("challenger__profile", "ladder")
        .annotate(above=place)
    )
    return {challenge.match_id: _terms(challenge) for challenge in challenges}


def _terms(challenge: Challenge) -> invitations.Terms:
    key = challenge.ladder.game_key
    try:
        game = str(registry.get(key).title)
    except KeyError:
        game = key
    days = settings.SMOKI["LADDER_DAYS_PER_MOVE"]
    what = {
        "who": challenge.challenger.profile.name,
        "game": game,
        "id": challenge.match_id,
        "place": (challenge.above or 0) + 1,
        "deadline": local_moment(challenge.accept_by),
        "days": days,
    }
    lines = (
        _(
            "This is a challenge on the %(game)s ladder: %(who)s, below you, wants your "
            "place (%(place)s)."
        )
        % what,
        _("Answer by %(deadline)s.") % what,
        ngettext(
            "Accept: the rated match #%(id)s starts at once, %(days)s day a move; if "
            "%(who)s wins, they take your place and you move down one.",
            "Accept: the rated match #%(id)s starts at once, %(days)s days a move; if "
            "%(who)s wins, they take your place and you move down one.",
            days,
        )
        % what,
        _("Decline, or no answer by then: %(who)s takes your place at once and you move down one.")
        % what,
    )
    return invitations.Terms(
        subject=str(
            _("%(who)s challenges you on the %(game)s ladder: answer by %(deadline)s") % what
        ),
        lines=tuple(one_full_stop(line) for line in lines),
        accept_url=reverse("ladder_accept", args=[challenge.pk]),
        decline_url=reverse("ladder_decline", args=[challenge.pk]),
        accept_label=str(_("Accept the challenge")),
        decline_label=str(_("Decline (lose your place)")),
        page_url=reverse("ladder_detail", args=[key]),
    )

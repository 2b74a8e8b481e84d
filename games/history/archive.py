"""The archive: finished matches anyone may look back on, filtered and paginated.

Public matches, and the private matches the person asking played in; other
players' private matches never appear, whoever asks.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django import forms
from django.contrib.auth import get_user_model
from django.core.paginator import Paginator
from django.db.models import Prefetch, Q
from django.utils.http import urlencode
from django.utils.translation import gettext_lazy as _

from accounts.refs import PlayerRef, ref_for_seat
from games.engine import registry
from games.models import Match, MatchStatus, Seat, Visibility

PER_PAGE = 25


class ArchiveFilter(forms.Form):
    game = forms.ChoiceField(label=_("Game"), required=False)
    player = forms.CharField(label=_("Player"), required=False, max_length=150)
    since = forms.DateField(
        label=_("Ended on or after"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    until = forms.DateField(
        label=_("Ended on or before"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["game"].choices = [("", _("Every game"))] + [
            (entry.key, entry.title) for entry in registry.all()
        ]

    def clean_player(self):
        name = self.cleaned_data["player"].strip()
        if "\x00" in name:
            raise forms.ValidationError(_("A player's name cannot hold that character."))
        return name

    def clean(self):
        data = super().clean()
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            raise forms.ValidationError(_("The first date must not come after the second."))
        return data


@dataclass
class ArchiveRow:
    match: Match
    title: str
    players: list[PlayerRef]
    winners: list[str]


def visible_finished(user):
    """Finished matches this person may look back on: public ones and their own."""
    shown = Q(visibility=Visibility.PUBLIC)
    if user is not None and user.is_authenticated:
        shown |= Q(pk__in=Seat.objects.filter(user=user).values("match_id"))
    return Match.objects.filter(shown, status=MatchStatus.FINISHED)


def archive_page(user, query) -> dict[str, Any]:
    """The archive's page for ``query`` (game, player, since, until, page)."""
    form = ArchiveFilter(query)
    status = 200
    matches = visible_finished(user)
    if form.is_valid():
        data = form.cleaned_data
        if data["game"]:
            matches = matches.filter(game_key=data["game"])
        if data["player"]:
            User = get_user_model()
            player_ids = User.objects.filter(username__iexact=data["player"]).values("pk")
            matches = matches.filter(
                pk__in=Seat.objects.filter(user__in=player_ids).values("match_id")
            )
        if data["since"]:
            matches = matches.filter(finished_at__date__gte=data["since"])
        if data["until"]:
            matches = matches.filter(finished_at__date__lte=data["until"])
    else:
        status = 400
        matches = matches.none()
    matches = (
        matches.defer("state", "options")
        .prefetch_related(Prefetch("seats", queryset=Seat.objects.select_related("user__profile")))
        .order_by("-finished_at", "-pk")
    )
    page = Paginator(matches, PER_PAGE).get_page(query.get("page"))
    rows = []
    for match in page.object_list:
        seats = sorted(match.seats.all(), key=lambda s: s.index)
        rows.append(
            ArchiveRow(
                match=match,
                title=registry.get(match.game_key).title,
                players=[ref_for_seat(seat) for seat in seats],
                winners=[seat.display_name for seat in seats if seat.rank == 1],
            )
        )
    filters = {key: value for key, value in query.items() if key != "page" and key in form.fields}
    return {
        "form": form,
        "rows": rows,
        "page": page,
        "filters": urlencode(filters),
        "status": status,
    }

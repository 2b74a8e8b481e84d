"""What the players app lends the matches of its ratings
(``games.play.standing``): a player's number, many at once, and what a
finished match changed, in the active language."""

from __future__ import annotations

from django.db.models import Count, OuterRef, Subquery

from players.models import NEWCOMER_RATING, PROVISIONAL_MATCHES, Rating, RatingChange, rating_of
from players.rating_words import (
    new_rating_why,
    rating_change_text,
    short_rating_change,
    uncounted_note,
)


class PlayersStanding:
    def rating_of(self, user_id: int, game_key: str) -> int:
        return rating_of(user_id, game_key)

    def ratings_of(self, wanted):
        rows = Rating.objects.filter(
            user_id__in={u for u, _k in wanted}, game_key__in={k for _u, k in wanted}
        ).values_list("user_id", "game_key", "display")
        found = {(u, k): d for u, k, d in rows}
        return {key: found.get(key, NEWCOMER_RATING) for key in wanted}

    def leaders(self, game_keys, n):
        from games.play.standing import Leader
        from players.selectors import leaders

        return {
            key: [Leader(r.ref, r.display, r.place, r.provisional) for r in rows]
            for key, rows in leaders(game_keys, n).items()
        }

    def uncounted_note(self, match) -> str:
        return uncounted_note(match)

    def changes_in(self, match):
        from games.play.standing import RatingWords

        # Each change with how many rated matches of the game its player had
        # then (this one included), counted in the same statement.
        upto = RatingChange.objects.filter(
            user=OuterRef("user"), game_key=OuterRef("game_key"), rated_at__lte=OuterRef("rated_at")
        )
        changes = RatingChange.objects.filter(match=match).annotate(
            nth=Subquery(upto.order_by().values("user").annotate(n=Count("*")).values("n"))
        )
        return {
            change.user_id: RatingWords(
                short=short_rating_change(change),
                sentence=rating_change_text(change, match.game_key),
                why=new_rating_why() if (change.nth or 0) <= PROVISIONAL_MATCHES else "",
            )
            for change in changes
        }

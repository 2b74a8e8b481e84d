"""What the players app lends the matches of its ratings
(``games.play.standing``): a player's number, many at once, and what a
finished match changed, in the active language."""

from __future__ import annotations

from players.models import NEWCOMER_RATING, Rating, RatingChange, rating_of
from players.rating_words import rating_change_text, short_rating_change, uncounted_note


class PlayersStanding:
    def rating_of(self, user_id: int, game_key: str) -> int:
        return rating_of(user_id, game_key)

    def ratings_of(self, wanted):
        rows = Rating.objects.filter(
            user_id__in={u for u, _k in wanted}, game_key__in={k for _u, k in wanted}
        ).values_list("user_id", "game_key", "display")
        found = {(u, k): d for u, k, d in rows}
        return {key: found.get(key, NEWCOMER_RATING) for key in wanted}

    def uncounted_note(self, match) -> str:
        return uncounted_note(match)

    def changes_in(self, match):
        from games.play.standing import RatingWords

        return {
            change.user_id: RatingWords(
                short=short_rating_change(change),
                sentence=rating_change_text(change, match.game_key),
            )
            for change in RatingChange.objects.filter(match=match)
        }

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Player pages, ratings, leaderboards and blocking: above the match
    machinery, told of a finished match by ``games.play.services.finish_match``."""

    name = "players"

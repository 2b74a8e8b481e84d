from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Player pages, ratings and leaderboards: above the match machinery,
    told of a match's start, end and corrected result by ``games.signals``
    (``players.receivers``), and lending the matches what they show of the
    ratings (``players.standing``)."""

    name = "players"

    def ready(self):
        from games.play import standing
        from players import receivers
        from players.standing import PlayersStanding

        receivers.connect()
        standing.lend(PlayersStanding())

from django.apps import AppConfig


class PlayersConfig(AppConfig):
    """Player pages, ratings and leaderboards: above the match machinery,
    told of a match's start, end and corrected result by ``games.signals``
    (``players.receivers``), and lending the matches what they show of the
    ratings (``players.standing``)."""

    name = "players"

    def ready(self):
        from django.db.models.signals import post_migrate

        from accounts.roles import ensure_moderator_group, register_permissions
        from games.moderation import audit
        from games.play import standing
        from players import moderation, receivers
        from players.standing import PlayersStanding

        # The desk's ratings, their history and the suspicious pairs; the
        # players' pictures and bios, which it may remove (players.moderation).
        register_permissions("players", ["view_rating", "view_ratingchange"])
        register_permissions("accounts", ["moderate_identity"])
        audit.register_kinds(moderation.AuditKind)
        receivers.connect()
        standing.lend(PlayersStanding())
        # The moderators' group again once this app's permissions exist.
        post_migrate.connect(ensure_moderator_group, sender=self)

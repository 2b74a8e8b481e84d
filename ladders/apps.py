from django.apps import AppConfig
from django.db.models.signals import post_migrate


class LaddersConfig(AppConfig):
    """A ladder per two-player game: ranked lists climbed by challenges, each a
    private match of the game. Above the match machinery; told of a finished
    or cancelled match by ``games.signals.match_ended`` and of a deactivated
    or deleted player by the user model's signals (``ladders.receivers``)."""

    name = "ladders"

    def ready(self):
        from accounts.roles import ensure_moderator_group, register_permissions
        from games.moderation import audit
        from ladders import news, receivers, selectors, terms
        from ladders.models import AuditKind
        from players import sections

        register_permissions(
            "ladders", ["view_ladder", "view_entry", "view_challenge", "moderate_ladder"]
        )
        receivers.connect()
        news.register()
        terms.register()
        audit.register_kinds(AuditKind)
        sections.register("ladders", "ladders/player_section.html", selectors.player_section)
        # The moderators' group again once this app's permissions exist (the
        # games app's pass runs before they are made).
        post_migrate.connect(ensure_moderator_group, sender=self)

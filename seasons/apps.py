from django.apps import AppConfig


class SeasonsConfig(AppConfig):
    """A league per game for each quarter, in divisions that are round robin
    tournaments: above the tournaments, whose matches, standings and
    withdrawals it uses as they are."""

    name = "seasons"

    def ready(self):
        from django.db.models.signals import post_migrate

        from accounts.roles import ensure_moderator_group, register_permissions
        from games.moderation import audit
        from players import sections
        from seasons import selectors
        from seasons.models import AuditKind

        register_permissions("seasons", ["view_season", "view_division", "view_seasonentry"])
        audit.register_kinds(AuditKind)
        sections.register("seasons", "seasons/player_section.html", selectors.player_section)
        # The moderators' group again once this app's permissions exist.
        post_migrate.connect(ensure_moderator_group, sender=self)

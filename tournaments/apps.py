from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Round robin, Swiss and knockout tournaments built on ordinary matches: above the
    match machinery, told of a match's end by ``games.signals.match_ended``."""

    name = "tournaments"

    def ready(self):
        from django.db.models.signals import post_migrate

        from accounts.roles import ensure_moderator_group, register_permissions
        from games.moderation import audit
        from games.play import bot_accounts
        from games.signals import match_ended
        from players import sections
        from tournaments import notify, selectors, services
        from tournaments.models import AuditKind

        register_permissions(
            "tournaments",
            [
                "view_tournament",
                "moderate_tournament",
                "view_entrant",
                "view_round",
                "view_placement",
                "view_tournamentmessage",
            ],
        )
        notify.register()
        audit.register_kinds(AuditKind)
        sections.register(
            "tournaments", "tournaments/player_section.html", selectors.player_section
        )
        bot_accounts.register_commitments(services.rounds_promised)
        match_ended.connect(services.on_match_ended, dispatch_uid="tournaments.match_ended")
        # The moderators' group again once this app's permissions exist.
        post_migrate.connect(ensure_moderator_group, sender=self)

from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    """Round robin and Swiss tournaments built on ordinary matches: above the
    match machinery, told of a match's end by ``games.signals.match_ended``."""

    name = "tournaments"

    def ready(self):
        from django.db.models.signals import post_migrate

        from games.moderation import audit
        from games.moderation.roles import ensure_moderator_group
        from games.signals import match_ended
        from tournaments import notify, services
        from tournaments.models import AuditKind

        notify.register()
        audit.register_kinds(AuditKind)
        match_ended.connect(services.on_match_ended, dispatch_uid="tournaments.match_ended")
        # The moderators' group again once this app's permissions exist.
        post_migrate.connect(ensure_moderator_group, sender=self)

from django.apps import AppConfig
from django.db.models.signals import post_migrate


class GamesConfig(AppConfig):
    name = "games"

    def ready(self):
        from accounts.roles import ensure_moderator_group, register_permissions
        from games import checks  # noqa: F401 - registers the deployment checks
        from games.i18n import translate_titles
        from games.live import changes, offer
        from games.moderation import admin  # noqa: F401 - the moderators' desk, on Django admin
        from games.play import vacation_notice

        translate_titles()
        vacation_notice.register()
        changes.connect()
        offer.register()
        register_permissions(
            "games",
            [
                "view_match",
                "moderate_match",
                "view_seat",
                "view_move",
                "view_invitation",
                "view_notification",
                "resend_email",
                "view_chatmessage",
                "moderate_chat",
                "view_report",
                "resolve_report",
                "view_moderationaction",
                "deactivate_user",
            ],
        )

        # After the permissions themselves are created (they are post_migrate too).
        post_migrate.connect(ensure_moderator_group, sender=self)

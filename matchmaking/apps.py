from django.apps import AppConfig


class MatchmakingConfig(AppConfig):
    """Quick match (docs/quick-match.md): requests that wait for a table of
    a game, formed by a pass every minute. Above the match machinery: it
    starts tables with ``games.lobby.services.start_table`` and shows its
    part of the lobby through ``games.lobby.sections``."""

    name = "matchmaking"

    def ready(self):
        from games.lobby import sections
        from matchmaking import notify, receivers, selectors

        notify.register()
        receivers.connect()
        sections.register("quick_match", "matchmaking/lobby_section.html", selectors.lobby_section)

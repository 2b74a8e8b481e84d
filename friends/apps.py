from django.apps import AppConfig


class FriendsConfig(AppConfig):
    """Follow and friends (docs/community.md): a player follows others; two
    who follow each other are friends. Above the match machinery: it lends
    friendship to the lobby (``games.play.friendship``), registers its news
    ("X now follows you") and its part of a player's page, and hears blocks
    (``friends.receivers``)."""

    name = "friends"

    def ready(self):
        from friends import news, receivers, selectors
        from games.play import friendship
        from players import sections

        news.register()
        receivers.connect()
        friendship.lend(selectors)
        sections.register(
            "follow", "friends/player_section.html", selectors.player_section, with_viewer=True
        )

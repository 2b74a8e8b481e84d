"""How a page names a player: a link to their page, or a bot with its level.

A bot account (``accounts.bots``) is named with a BOT mark before its name,
wherever a ``PlayerRef`` is shown: in text as "BOT name", in a page as a
marked badge before the link.

A ``PlayerRef`` prints as the plain name where text is wanted (emails, the
board in words) and as a link in templates (``__html__``), so every list of
names the pages show links to the players without logic in the templates.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext as _

from accounts.bots import BOT_MARK, is_bot_account

BOT_LEVEL_LABELS = {
    "heuristic": lambda: _("heuristic bot"),
    "random": lambda: _("random bot"),
    "strong": lambda: _("strong bot"),
}


@lru_cache(maxsize=8192)
def player_url(username: str) -> str:
    """A player's page address, kept per process: a panel names each player
    several times on every move and poll (the seats, the log, the status)."""
    return reverse("player_page", args=[username])


def bot_level_label(level: str) -> str:
    label = BOT_LEVEL_LABELS.get(level)
    return str(label()) if label else level


@dataclass(frozen=True)
class PlayerRef:
    name: str
    username: str = ""  # empty for a bot seat
    bot_level: str = ""
    rating: int | None = None  # shown after the name where a page lists ratings
    bot_account: bool = False  # a bot account's: marked BOT wherever it is named

    def __str__(self) -> str:
        if not self.username and self.bot_level:
            return f"{self.name} ({bot_level_label(self.bot_level)})"
        if self.bot_account:
            return f"{BOT_MARK} {self.name}"
        return self.name

    @property
    def mark(self) -> str:
        """The BOT mark alone (empty for anyone but a bot account), for a
        heading that writes the name itself."""
        if not self.bot_account:
            return ""
        return format_html(
            '<span class="bot-mark" title="{}">{}</span> ', _("bot account"), BOT_MARK
        )

    @property
    def titled(self) -> str:
        """The name with its mark, not a link: a player page's heading."""
        return format_html("{}{}", self.mark, self.name)

    @property
    def url(self) -> str:
        return player_url(self.username) if self.username else ""

    @property
    def html(self) -> str:
        """The link, for a template's ``{{ ref.html }}`` (Django's templates
        print a lone object by ``str``; lists joined by ``join`` use
        ``__html__``)."""
        return self.__html__()

    def __html__(self) -> str:
        if not self.username:
            return format_html('<span class="bot-name">{}</span>', str(self))
        link = format_html(
            '{}<a class="player-link" href="{}">{}</a>', self.mark, self.url, self.name
        )
        if self.rating is None:
            return link
        return format_html('{} <span class="rating">({})</span>', link, self.rating)


def ref_for_user(user, name: str | None = None) -> PlayerRef:
    """A person, named by ``name`` or their profile's name."""
    if name is None:
        profile = getattr(user, "profile", None)
        name = profile.name if profile else user.username
    return PlayerRef(name=name, username=user.username, bot_account=is_bot_account(user))


def ref_for_seat(seat, name: str | None = None, rating: int | None = None) -> PlayerRef:
    """A seat: its player's page, or a bot seat's level. ``name`` is what the
    page calls the seat already (``Seat.display_name``)."""
    name = seat.display_name if name is None else name
    if seat.user_id is None:
        return PlayerRef(name=name, bot_level=seat.bot_level or "heuristic")
    return PlayerRef(
        name=name,
        username=seat.user.username,
        rating=rating,
        bot_account=is_bot_account(seat.user),
    )

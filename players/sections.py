"""What the apps built on matches add to a player's page: a section each
(a ladder's places, the tournaments entered), registered when the app
starts (``core/sections.py``), so the players app never imports them."""

from core.sections import Sections

_page = Sections()
register = _page.register
sections_for = _page.sections_for

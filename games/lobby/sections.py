"""What the apps built on matches add to the lobby: a section each (quick
match's waiting requests and counts), registered when the app starts
(``core/sections.py``), so the lobby never imports them."""

from core.sections import Sections

_page = Sections()
register = _page.register
sections_for = _page.sections_for

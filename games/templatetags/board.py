"""The board on Django's pages: ``{% draw_board %}`` and ``{% icon %}``.

Boards themselves are Jinja2 templates drawn with the board toolkit of
games/jinja.py; Django's templates (the match panel, the about page, the
rules pages) use these tags.
"""

from __future__ import annotations

from django import template
from django.template import engines
from django.utils.safestring import mark_safe

from games.panel import icons, presenters
from games.panel.jinja import unique_ids

register = template.Library()


@register.simple_tag(takes_context=True)
def draw_board(context):
    """The game's board: its presenter's ``BOARD_TEMPLATE``, a Jinja2 template
    (games/jinja.py), drawn from this page's context."""
    board = engines["jinja2"].env.get_template(context["board_template"])
    return mark_safe(board.render(context.flatten()))  # escaped by the environment


@register.simple_tag(takes_context=True)
def draw_record_board(context, drawn, unique=False):
    """One of the printable record's boards (``games.history.replay.RecordBoard``):
    its template drawn as a spectator sees it, without choices, highlights or a
    private part; with ``unique`` every id it declares made its own by its step
    ("-s5"), so several boards share a page."""
    board = engines["jinja2"].env.get_template(drawn.template)
    values = {
        **context.flatten(),
        "board": drawn.board,
        "choices": None,
        "private": None,
        "changed": frozenset(),
    }
    html = board.render(values)
    return mark_safe(unique_ids(html, f"s{drawn.step}") if unique else html)  # escaped


@register.simple_tag
def icon(name, size=24, x=None, y=None, color="currentColor", css="", sprite_of=None):
    """``{% icon "dragon-head" size=30 x=10 y=10 color="#8b0000" %}``: a game-icons picture
    (games/panel/icons.py), nested in a board's SVG at x, y or inline in HTML;
    ``sprite_of`` (a tuple of icon names) refers to the small sprite of those only."""
    return icons.svg(name, size=size, x=x, y=y, color=color, css=css, sprite_of=sprite_of)


@register.simple_tag(takes_context=True)
def how_to_play_figure(context, name):
    """``{% how_to_play_figure "placement" %}``: a picture on a game's How to play page,
    drawn by the game's own Jinja2 templates as its board draws the same things; the
    presenter's ``how_to_play_figure(name)`` gives the template and its context."""
    presenter = presenters.get(context["game"].key)
    template, values = presenter.how_to_play_figure(name)
    drawn = engines["jinja2"].env.get_template(template).render(values)
    return mark_safe(drawn)  # escaped by the environment

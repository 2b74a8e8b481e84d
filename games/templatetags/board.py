"""The board toolkit: what every game's board template uses to offer a click.

A presenter hands its template the viewer's choices (``presenters.Choice``:
a path, a label and, for a click that completes a move, the action). A board
draws each one where it belongs, wrapped in ``{% board_choice %}``, which
owns the site's side of it: the URLs of the match, the htmx attributes, the
action and version posted, the path kept for a no-JavaScript click and the
accessible name. Board templates and presenters never name a URL.

    {% load board %}
    {% board_choice choice %}<rect .../>{% endboard_choice %}      (inside SVG)
    {% board_choice choice tag="button" %}{{ card }}{% endboard_choice %}  (HTML)

``{% only_you %}…{% endonly_you %}`` wraps what only the viewer may see and
``{% revealed_at_end %}…{% endrevealed_at_end %}`` what the end of a match
reveals, so every game labels secrets the same way.

``{% board_role %}`` gives an SVG that may hold clicks its role, and
``<div {% scroll_box %}>`` wraps a wide one in a focusable, named scroll box.

CSS convention (``static/css/smoki.css``, no per-game edit): ``.board`` on the
figure, ``.board-scroll`` around a wide SVG, ``.board-choice`` on every click
(``.final`` when it completes a move), ``.hand`` and ``.card`` for hands.
A track of numbered fields is an ``ol.track`` whose items carry their place in
a serpentine of 9, 6 and 4 columns (``t9-r1 t9-c3 t6-r1 ...``): the track's own
width picks the layout, so fields keep their size from a desktop to a phone;
``.track-start``, ``.track-end`` (places after the last field) and ``.tray``
(dice) sit around it. ``{% icon name %}`` draws a game-icons picture (pieces
and rooms look alike across games; see games/icons.py).
"""

from __future__ import annotations

import json

from django import template
from django.urls import reverse
from django.utils.html import format_html
from django.utils.http import urlencode
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.utils.translation import gettext_noop

from games import icons

register = template.Library()


def choice_attrs(context, choice, extra_class: str = "") -> dict[str, str]:
    """The attributes of a clickable choice, from the match in ``context``."""
    match = context["match"]
    token = context.get("token")
    query = {"path": choice.path}
    if token:
        query["token"] = token
    attrs = {
        "href": f"{reverse('match_detail', args=[match.pk])}?{urlencode(query)}",
        "data-path": choice.path,
        "hx-target": "#match-panel",
        "hx-swap": "outerHTML",
        "aria-label": str(choice.label),
    }
    if choice.action_json is not None:
        attrs["hx-post"] = reverse("match_act", args=[match.pk])
        attrs["hx-vals"] = json.dumps({"action": choice.action_json, "version": match.version})
    else:
        attrs["hx-get"] = f"{reverse('match_panel', args=[match.pk])}?{urlencode(query)}"
        # The address keeps the half-chosen move, so a reload comes back to it.
        attrs["hx-push-url"] = attrs["href"]
    classes = ["board-choice"]
    if choice.action_json is not None:
        classes.append("final")
    if extra_class:
        classes.append(extra_class)
    attrs["class"] = " ".join(classes)
    return attrs


class BoardChoiceNode(template.Node):
    def __init__(self, choice, nodelist, extra_class, tag):
        self.choice = choice
        self.nodelist = nodelist
        self.extra_class = extra_class
        self.tag = tag

    def render(self, context):
        choice = self.choice.resolve(context)
        inner = self.nodelist.render(context)
        if choice is None:
            return inner
        extra = self.extra_class.resolve(context) if self.extra_class else ""
        tag = self.tag.resolve(context) if self.tag else "a"
        attrs = choice_attrs(context, choice, extra)
        if tag != "a":
            attrs["role"] = "link"
            attrs["tabindex"] = "0"
        rendered = " ".join(format_html('{}="{}"', name, value) for name, value in attrs.items())
        return mark_safe(f"<{tag} {rendered}>{inner}</{tag}>")  # attrs escaped above


@register.tag
def board_choice(parser, token):
    """``{% board_choice choice [class="..."] [tag="a"] %}…{% endboard_choice %}``.

    With ``choice`` None the content is drawn without a link (not clickable now).
    """
    bits = token.split_contents()
    if len(bits) < 2:
        raise template.TemplateSyntaxError("board_choice needs a choice")
    choice = parser.compile_filter(bits[1])
    extra_class = tag = None
    for bit in bits[2:]:
        name, _sep, value = bit.partition("=")
        if name == "class":
            extra_class = parser.compile_filter(value)
        elif name == "tag":
            tag = parser.compile_filter(value)
        else:
            raise template.TemplateSyntaxError(f"board_choice: unknown argument {bit}")
    nodelist = parser.parse(("endboard_choice",))
    parser.delete_first_token()
    return BoardChoiceNode(choice, nodelist, extra_class, tag)


class PanelNode(template.Node):
    def __init__(self, nodelist, css_class, element_id, heading):
        self.nodelist = nodelist
        self.css_class = css_class
        self.element_id = element_id
        self.heading = heading

    def render(self, context):
        return format_html(
            '<section class="{}" id="{}"><h2>{}</h2>{}</section>',
            self.css_class,
            self.element_id,
            _(self.heading),
            self.nodelist.render(context),
        )


@register.tag
def only_you(parser, token):
    """What only the viewer may see: their hand, coins, goal. Always ``#my-secrets``."""
    nodelist = parser.parse(("endonly_you",))
    parser.delete_first_token()
    return PanelNode(nodelist, "secrets", "my-secrets", gettext_noop("Only you can see this"))


@register.tag
def revealed_at_end(parser, token):
    """What the end of the match reveals to everyone (goals, hands, hidden values)."""
    nodelist = parser.parse(("endrevealed_at_end",))
    parser.delete_first_token()
    return PanelNode(nodelist, "revealed", "revealed", gettext_noop("Revealed at the end"))


@register.simple_tag(takes_context=True)
def board_role(context):
    """``role`` of an SVG that draws the viewer's clicks: ``group`` while the viewer has
    choices (an ``img`` hides its links from screen readers), ``img`` when it is only a
    picture. Name it with ``aria-labelledby`` or ``aria-label`` either way."""
    choices = context.get("choices")
    return mark_safe('role="group"' if choices and choices.choices else 'role="img"')


@register.simple_tag
def scroll_box():
    """The attributes of a ``.board-scroll`` box: focusable and named, so a board wider
    than the screen scrolls by keyboard too."""
    return format_html(
        'class="board-scroll" tabindex="0" role="region" aria-label="{}"',
        _("The board; scroll to see all of it"),
    )


@register.simple_tag
def icon(name, size=24, x=None, y=None, color="currentColor", css=""):
    """``{% icon "dragon-head" size=30 x=10 y=10 color="#8b0000" %}``: a game-icons picture
    (games/icons.py), nested in a board's SVG at x, y or inline in HTML."""
    return icons.svg(name, size=size, x=x, y=y, color=color, css=css)

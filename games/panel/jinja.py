"""The board toolkit: the Jinja2 environment every game's board is drawn in.

A board is the largest part of every answer to a move and every page of a
match: hundreds of coordinates, colours and labels per request. Django's
template language resolves each of them through its variable lookup and
localisation, which made drawing the board about a third of a move's time;
Jinja2 compiles a template to Python and draws the same board several times
faster (figures in docs/performance.md). The match panel around it is a
Jinja2 template too (``templates/games/panel.jinja``, drawn by ``render``),
so a move's answer is drawn in one engine; it draws the board with
``draw_board()``, which keeps a board drawn without choices for the next
viewer of the same version. Django's pages that show a board on their own
(the replay) use ``{% draw_board %}`` (games/templatetags/board.py).

Each game keeps its board beside its other templates, in
``<package>/templates/games/<key>/board.jinja`` (found through the registry).
A presenter hands its template the viewer's choices (``presenters.Choice``:
a path, a label and, for a click that completes a move, the action); the
board draws each where it belongs with the toolkit below, which owns the
site's side of it: the URLs of the match, the htmx attributes, the action
and version posted, the path kept for a no-JavaScript click and the
accessible name. Board templates and presenters never name a URL.

    {% call board_choice(choice) %}<rect .../>{% endcall %}                 (inside SVG)
    {% call board_choice(choice, extra_class="card") %}…{% endcall %}    (HTML: a card, a button)
    {{ private_part() }}   where the viewer's private part goes (#my-secrets): the
                               presenter's ``PRIVATE_TEMPLATE``, drawn from its
                               ``private_context`` (``mine``), apart from the board
    {% call revealed_at_end() %}…{% endcall %}   what the end of a match reveals
    <svg {{ board_role() }}>   an SVG that may hold clicks: "group" with choices, else "img"
    <div {{ scroll_box() }}>   a wide board in a focusable, named scroll box
    {{ changed_mark(key, x, y, w, h, label) }}   (inside SVG) a dashed outline and a marker
                               on an element the presenter's ``changed`` named, titled
                               "changed: <label>" (the element in words), or nothing
    {{ changed_badge(key) }}   (inside an HTML element) the same marker and a hidden "changed"
    {{ icon("castle", size=28, x=…, y=…, color=…) }}   a game-icons picture (games/icons.py)

Words are ``{{ _("…") }}`` and a sentence with a value in it
``{{ _("Tiles in the pile: %(n)s.")|fill(n=board.stack) }}``: ``make
messages`` gathers both (Django reads ``_("…")`` in the ``.jinja`` files it
is given); as with ``{% translate %}`` and ``{% blocktranslate %}``, our
catalogues' words are drawn as written and only the values are escaped. Plurals are
worded by the presenter in Python (``ngettext``). ``add`` and ``widthratio``
are Django's; numbers are never localised (they are coordinates, sizes and
counts: ``x="2.5"`` in every language). Every other ``{{ … }}`` is escaped
(MarkupSafe writes ``&#39;`` where Django wrote ``&#x27;``; a browser shows
the same).

CSS convention (``static/css/smoki.css``, no per-game edit): ``.board`` on the
figure, ``.board-scroll`` around a wide SVG, ``.board-choice`` on every click
(``.final`` when it completes a move), ``.hand`` and ``.card`` for hands.
A track of numbered fields is an ``ol.track`` whose items carry their place in
a serpentine of 9, 6 and 4 columns (``t9-r1 t9-c3 t6-r1 ...``): the track's own
width picks the layout, so fields keep their size from a desktop to a phone;
``.track-start``, ``.track-end`` (places after the last field) and ``.tray``
(dice) sit around it.
"""

from __future__ import annotations

import html
import json
import re
from functools import lru_cache
from pathlib import Path

import jinja2
from django.conf import settings
from django.core.cache import cache
from django.template import defaultfilters
from django.template.defaultfilters import add
from django.urls import reverse
from django.utils.functional import Promise
from django.utils.html import conditional_escape, format_html
from django.utils.safestring import mark_safe
from django.utils.timezone import template_localtime
from django.utils.translation import get_language, gettext, gettext_noop

from games.engine import registry
from games.panel import formats, icons
from games.panel.presenters import MatchUrls
from games.panel.template_loader import JINJA_SUFFIX

BOARD_CACHE_SECONDS = 6 * 3600
ONLY_YOU = gettext_noop("Only you can see this")
REVEALED = gettext_noop("Revealed at the end")
CHANGED = gettext_noop("changed")
#: The name of a changed element's mark on an SVG board: what changed, in words.
CHANGED_WHAT = gettext_noop("changed: %(what)s")
#: The name of a choice whose card or tile holds a changed badge.
CHANGED_CHOICE = gettext_noop("%(choice)s (changed)")
CHANGED_BADGE = 'class="changed-badge"'
#: A four-pointed star, the changed marker's sign, drawn around (0, 0) in a 9-unit radius.
STAR = "M0,-9 L2.4,-2.4 L9,0 L2.4,2.4 L0,9 L-2.4,2.4 L-9,0 L-2.4,-2.4 Z"


class CatalogLoader(jinja2.BaseLoader):
    """``*.jinja`` in each registered game's ``<package>/templates`` folder (a game
    registered anywhere, even by the test suite alone, brings its board with it),
    then in the site's ``templates/`` (the match panel around the boards)."""

    def get_source(self, environment, template):
        if not template.endswith(JINJA_SUFFIX):
            raise jinja2.TemplateNotFound(template)
        folders = [str(entry.templates_dir) for entry in registry.registrations()]
        folders.append(str(Path(settings.BASE_DIR) / "templates"))
        return jinja2.FileSystemLoader(folders).get_source(environment, template)


def choice_attrs(context, choice, extra_class: str = "") -> dict[str, str]:
    """The attributes of a clickable choice, from the match in ``context``."""
    match = context["match"]
    urls = context.get("urls") or MatchUrls.of(match.pk)
    token = context.get("token")
    attrs = {
        "href": urls.detail_at(choice.path, token),
        "data-path": choice.path,
        "hx-target": "#match-panel",
        "hx-swap": "outerHTML",
        "aria-label": str(choice.label),
    }
    if choice.action_json is not None:
        attrs["hx-post"] = urls.act
        attrs["hx-vals"] = json.dumps({"action": choice.action_json, "version": match.version})
    else:
        attrs["hx-get"] = urls.panel_at(choice.path, token)
        # The address keeps the half-chosen move, so a reload comes back to it.
        attrs["hx-push-url"] = attrs["href"]
    classes = ["board-choice"]
    if choice.action_json is not None:
        classes.append("final")
    if extra_class:
        classes.append(extra_class)
    attrs["class"] = " ".join(classes)
    return attrs


@jinja2.pass_context
def board_choice(context, choice, extra_class: str = "", caller=None, name=None):
    """What ``caller`` draws, wrapped in the link of ``choice``; drawn as it is
    when the choice is None (not clickable now). The link is named by the choice's
    label, or by ``name`` when the piece it wraps says more (a Drako dwarf and the
    hex it stands on).

    Always a real link (``<a href>``, in HTML or SVG): the browser itself
    focuses it and follows it on Enter (``static/js/smoki.js`` adds Space), and
    without JavaScript the ``href`` keeps the half-chosen move. A card or a
    button look is a class (``card``, ``choice-button``); a ``<div>`` with a link
    role would be focusable but deaf to the keyboard
    (``tests/conformance/test_board_clicks.py``)."""
    inner = caller()
    if choice is None:
        return inner
    attrs = choice_attrs(context, choice, extra_class)
    if name:
        attrs["aria-label"] = str(name)
    if CHANGED_BADGE in inner:
        # The link's name replaces the words inside it: it says the hidden "changed" too.
        attrs["aria-label"] = gettext(CHANGED_CHOICE) % {"choice": attrs["aria-label"]}
    # Escaped one by one, without format_html: a Drakon turn draws dozens of these.
    rendered = " ".join(f'{name}="{_escaped(value)}"' for name, value in attrs.items())
    return mark_safe(f"<a {rendered}>{inner}</a>")  # attrs escaped above


def _escaped(value) -> str:
    """``conditional_escape(value)``, the same text, without the wrapper that
    Django puts around it for lazy values (a tenth of drawing a choice)."""
    if isinstance(value, Promise):
        value = str(value)
    return value.__html__() if hasattr(value, "__html__") else html.escape(str(value))


def _secret_panel(css_class: str, element_id: str, heading: str, inner: str) -> str:
    return format_html(
        '<section class="{}" id="{}"><h2>{}</h2>{}</section>',
        css_class,
        element_id,
        gettext(heading),
        inner,
    )


def only_you(caller=None):
    """What only the viewer may see: their hand, coins, goal. Always ``#my-secrets``."""
    return _secret_panel("secrets", "my-secrets", ONLY_YOU, caller())


#: Where ``draw_board`` puts the viewer's private part into a board it draws
#: for every viewer alike (and keeps): ``private_part()`` writes it there.
PRIVATE_LATER = "<!--smoki:private-part-->"


@jinja2.pass_context
def private_part(context):
    """The viewer's private part (``presenters.Private``, the context's
    ``private``) at this place of the board, inside ``only_you()``; nothing for
    a spectator. When the match panel draws the board (``draw_board``), a mark
    instead: the board is drawn and kept for every viewer alike, and each
    viewer's private part put in its place after."""
    if context.get("private_later"):
        return mark_safe(PRIVATE_LATER)
    return draw_private(context.environment, context.get("private"), context.get_all())


def draw_private(environment, private, context: dict) -> str:
    """``private`` (a ``presenters.Private`` or None) drawn by its template
    from ``context`` with its own as ``mine``, inside ``#my-secrets``."""
    if private is None:
        return ""
    template = environment.get_template(private.template)
    inner = template.render({**context, "mine": private.context})  # escaped by the environment
    return only_you(lambda: mark_safe(inner))


def revealed_at_end(caller=None):
    """What the end of the match reveals to everyone (goals, hands, hidden values)."""
    return _secret_panel("revealed", "revealed", REVEALED, caller())


@jinja2.pass_context
def board_role(context):
    """``role`` of an SVG that draws the viewer's clicks: ``group`` while the viewer has
    choices (an ``img`` hides its links from screen readers), ``img`` when it is only a
    picture. Name it with ``aria-labelledby`` or ``aria-label`` either way."""
    choices = context.get("choices")
    return mark_safe('role="group"' if choices and choices.choices else 'role="img"')


def scroll_box():
    """The attributes of a ``.board-scroll`` box: focusable and named, so a board wider
    than the screen scrolls by keyboard too."""
    return format_html(
        'class="board-scroll" tabindex="0" role="region" aria-label="{}"',
        gettext("The board; scroll to see all of it"),
    )


@jinja2.pass_context
def is_changed(context, key: str) -> bool:
    """Whether the element ``key`` is among those the page highlights: what the
    presenter's ``changed(before_view, after_view)`` gave as ``changed`` (the match
    page since the viewer's last look, a replay step since the step before)."""
    return key in (context.get("changed") or ())


def _mark(key: str, x, y, width, height, label) -> str:
    """A dashed outline around (x, y, width, height) and a star in a white disc in
    its top-right corner: a shape and a sign, not a colour alone; black dashes on a
    white line, so it shows on every tile and in both themes. It takes no clicks
    (``pointer-events="none"``), so a choice under it stays clickable. Its title
    says what changed ("changed: the Entrance, column 0, row 0"): ``label``, the
    element's own name as the board words it."""
    x, y, width, height = float(x), float(y), float(width), float(height)
    radius = min(10.0, min(width, height) / 4)
    cx, cy = x + width - radius, y + radius
    return format_html(
        '<g class="changed-mark" data-changed="{}" pointer-events="none">'
        '<title>{}</title><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5" fill="none"'
        ' stroke="#fff" stroke-width="5"/><rect x="{x}" y="{y}" width="{w}" height="{h}" rx="5"'
        ' fill="none" stroke="#000" stroke-width="3" stroke-dasharray="6 4"/>'
        '<circle cx="{}" cy="{}" r="{}" fill="#fff" stroke="#000" stroke-width="1.5"/>'
        '<path d="{}" transform="translate({} {}) scale({})" fill="#000"/></g>',
        key,
        gettext(CHANGED_WHAT) % {"what": label},
        *(f"{value:g}" for value in (cx, cy, radius)),
        STAR,
        f"{cx:g}",
        f"{cy:g}",
        f"{radius / 11:g}",
        x=f"{x:g}",
        y=f"{y:g}",
        w=f"{width:g}",
        h=f"{height:g}",
    )


@jinja2.pass_context
def changed_mark(context, key: str, x, y, width, height, label) -> str:
    """Inside a board's SVG: the changed marker over the box of element ``key`` when it
    changed, named by ``label`` (what the element is, in words), and nothing otherwise
    (so an unchanged board is drawn as before)."""
    if not is_changed(context, key):
        return ""
    return _mark(key, x, y, width, height, label)


@jinja2.pass_context
def changed_badge(context, key: str) -> str:
    """Inside an HTML element (a card, a hand tile): the star and a visually hidden
    "changed" when element ``key`` changed; the site's CSS outlines the element that
    holds it with a dashed line (``:has(> .changed-badge)``). Nothing otherwise."""
    if not is_changed(context, key):
        return ""
    return format_html(
        '<span class="changed-badge" data-changed="{}"><svg viewBox="-10 -10 20 20" width="16"'
        ' height="16" aria-hidden="true"><path d="{}" fill="currentColor"/></svg>'
        '<span class="visually-hidden">{}</span></span>',
        key,
        STAR,
        gettext(CHANGED),
    )


_TRANSLATED: dict[tuple[str | None, str], str] = {}


def translate(message: str) -> str:
    """``{{ _("…") }}``, as ``{% translate "…" %}``: words from our own catalogues,
    drawn as they are written (an apostrophe stays an apostrophe).

    Kept per language once looked up: a panel asks for a few dozen fixed words
    on every move and poll, and Django's look-up through the active
    translation's fallbacks cost a tenth of drawing it. The words are the
    templates' literals, so the table stays small."""
    key = (get_language(), message)
    found = _TRANSLATED.get(key)
    if found is None:
        found = _TRANSLATED[key] = mark_safe(gettext(message))
    return found


def fill(message: str, **values) -> str:
    """A translated sentence with its values put in, the values escaped and the
    sentence not: ``{% blocktranslate with n=… %}`` in Django's language."""
    return mark_safe(str(message) % {name: conditional_escape(v) for name, v in values.items()})


def widthratio(value, max_value, max_width) -> str:
    """Django's ``{% widthratio %}``: ``value / max_value * max_width``, rounded."""
    try:
        return str(round(float(value) / float(max_value) * float(max_width)))
    except ZeroDivisionError:
        return "0"
    except (ValueError, TypeError, OverflowError):
        return ""


@lru_cache(maxsize=4096)
def url(name: str, *args) -> str:
    """``{% url name arg %}``: the site's address of a view (kept: a panel names
    a dozen addresses of its match on every move)."""
    return reverse(name, args=args)


def date(value, fmt: str | None = None) -> str:
    """Django's ``date`` filter, in the viewer's zone as Django's templates show it."""
    return defaultfilters.date(template_localtime(value), fmt)


@jinja2.pass_context
def draw_board(context):
    """The game's board: the presenter's ``BOARD_TEMPLATE`` drawn from the
    panel's context, with the viewer's private part in its place.

    The board is drawn with a mark where the private part goes
    (``private_part()``), so that a board drawn without choices, which
    depends only on what ``selectors.board_cache_key`` names (the match, its
    stamp and position, the language, the theme, the seat names, the
    viewer's highlights), is kept in the shared cache for every viewer of the
    version, and each viewer's private part and words under their own key
    (``selectors.viewer_cache_key``). The next request for it (another seat,
    a spectator, a poll, a reload) gets ``board_html`` and ``private_html``
    instead of building the board again."""
    values = context.get_all()
    key, viewer_key = context.get("board_cache_key"), context.get("viewer_cache_key")
    kept = {}
    public = context.get("board_html")
    if public is None:
        board = context.environment.get_template(context["board_template"])
        public = board.render({**values, "private_later": True})  # escaped by the environment
        if key:
            kept[key] = public
    own = context.get("private_html")
    if own is None:
        own = draw_private(context.environment, context.get("private"), values)
        if viewer_key:
            kept[viewer_key] = {"private": own, "words": list(context.get("board_text") or [])}
    if kept:
        cache.set_many(kept, BOARD_CACHE_SECONDS)
    if own and PRIVATE_LATER not in public:
        raise TypeError(f"{context['board_template']} has no private_part() for the viewer's own")
    return mark_safe(public.replace(PRIVATE_LATER, own, 1))


#: Parts of boards drawn once per process (``drawn_once``): a few hundred at most.
DRAWN_ONCE_KEPT = 4096
_DRAWN_ONCE: dict[tuple, str] = {}


@jinja2.pass_context
def drawn_once(context, key: tuple, draw, *args) -> str:
    """``draw(*args)`` (a board's macro), drawn once per process and language
    for ``key`` and reused by every later board: for a part that depends on
    nothing but what ``key`` names, such as a Nogi die's face, drawn alike on
    many boards. Nothing of a position, a seat or a secret may go into it but
    through ``key``.

    Drawn afresh, and not kept, when ``key`` holds a None (the part says it
    cannot be named: a knight that is a click names the match and its
    version) or when the board highlights changes (``changed``): a highlight
    is the viewer's own and never goes into a kept part."""
    return _drawn_once(key, draw, args, bool(context.get("changed")))


@jinja2.pass_context
def each_drawn_once(context, prefix: tuple, items, draw) -> str:
    """``drawn_once(prefix + (item.look(),), draw, item)`` for each of
    ``items``, joined: a row of parts (Nogi's 36 fields) in one call of the
    template, which costs less than 72. ``item.look()`` is everything the
    item shows, or None when it cannot be kept."""
    fresh, language = bool(context.get("changed")), get_language()
    drawn = [_drawn_once((*prefix, item.look()), draw, (item,), fresh, language) for item in items]
    return mark_safe("".join(drawn))


def _drawn_once(key: tuple, draw, args: tuple, fresh: bool, language: str | None = None) -> str:
    if fresh or None in key:
        return mark_safe(str(draw(*args)))
    full = (language or get_language(), *key)
    found = _DRAWN_ONCE.get(full)
    if found is None:
        found = mark_safe(str(draw(*args)))  # drawn and escaped by the board's template
        if len(_DRAWN_ONCE) < DRAWN_ONCE_KEPT:
            _DRAWN_ONCE[full] = found
    return found


PANEL_TEMPLATE = "games/panel.jinja"
CHAT_FORM_TEMPLATE = "games/chat_form.jinja"


def render(template_name: str, context: dict, request) -> str:
    """One of the site's Jinja2 fragments (the match panel, the chat form) for
    ``request``, with its CSRF field, the user and the login link (the backend's
    context processors, config/settings.py)."""
    from django.template import engines  # the backend built from this module

    return engines["jinja2"].get_template(template_name).render(context, request)


#: What a dict has as attributes (``items``, ``get``...): ``d.items`` stays the method.
_DICT_ATTRIBUTES = frozenset(dir(dict))


class Environment(jinja2.Environment):
    """Jinja2's environment with a cheaper ``d.key`` on a plain dict.

    Presenters hand the boards dicts, and ``board.field`` on a dict first
    tries ``getattr``, which raises and catches an AttributeError before
    reading ``board["field"]``: hundreds of times a board (a sixth of drawing
    Nogi's). A dict has no attribute but its class's, so for any other name
    reading the key first gives what Jinja2 gives, without the exception."""

    def getattr(self, obj, attribute):
        if type(obj) is dict and attribute not in _DICT_ATTRIBUTES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


def environment(**options) -> jinja2.Environment:
    """Django's Jinja2 backend calls this (settings.TEMPLATES)."""
    options["loader"] = CatalogLoader()
    options["keep_trailing_newline"] = True  # as Django's templates do
    env = Environment(**options)
    env.globals.update(
        _=translate,
        icon=icons.svg,
        board_choice=board_choice,
        board_role=board_role,
        scroll_box=scroll_box,
        is_changed=is_changed,
        changed_mark=changed_mark,
        changed_badge=changed_badge,
        only_you=only_you,
        private_part=private_part,
        revealed_at_end=revealed_at_end,
        widthratio=widthratio,
        url=url,
        draw_board=draw_board,
        drawn_once=drawn_once,
        each_drawn_once=each_drawn_once,
        move_log_items=formats.move_log_items,
    )
    env.filters.update(
        add=add,
        fill=fill,
        date=date,
        moment=formats.moment,
        duration=formats.duration,
        timeuntil=defaultfilters.timeuntil_filter,
    )
    return env


_ID_ATTR = re.compile(r'\b(id|for)="([^"]+)"')
_ID_LIST_ATTR = re.compile(
    r'\b(aria-(?:labelledby|describedby|controls|owns|activedescendant))="([^"]*)"'
)
_LOCAL_REF = re.compile(r'(href="|url\()#([^"\s)]+)')


def unique_ids(drawn: str, suffix: str) -> str:
    """``drawn`` (a board's HTML) with every id it declares made its own by
    ``suffix``, and every reference to one (``for``, ``aria-labelledby`` and
    the other id lists, ``href="#…"``, ``url(#…)``) following it: several
    boards on one page (the printable record's) repeat no id and each label
    still names its own board. References to ids the board does not declare
    (the icon sprite's ``/icons.svg?v=…#name``) are left alone."""
    declared = {value for name, value in _ID_ATTR.findall(drawn) if name == "id"}
    if not declared:
        return drawn

    def own(value: str) -> str:
        return f"{value}-{suffix}" if value in declared else value

    drawn = _ID_ATTR.sub(lambda m: f'{m[1]}="{own(m[2])}"', drawn)
    drawn = _ID_LIST_ATTR.sub(lambda m: f'{m[1]}="{" ".join(map(own, m[2].split()))}"', drawn)
    return _LOCAL_REF.sub(lambda m: f"{m[1]}#{own(m[2])}", drawn)

"""The Jinja2 environment the boards are drawn with (games/jinja.py).

A board is written in Jinja2 for speed but must read as the Django template
it replaced did: escaped output, Django's ``add`` and ``widthratio``, a
translated sentence whose values (not its words) are escaped, the board
toolkit's clicks and secret panels, and no localised numbers.
"""

from __future__ import annotations

import json
import re
from html import unescape
from types import SimpleNamespace

import pytest
from django.template import TemplateDoesNotExist, engines
from django.utils import translation

from games.engine import registry
from games.panel import presenters
from games.panel.presenters import Choice

JINJA_BACKEND = engines["jinja2"]
JINJA = JINJA_BACKEND.env


def draw(source: str, **context) -> str:
    return JINJA.from_string(source).render(context)


def test_output_is_escaped_and_safe_strings_are_not():
    from django.utils.safestring import mark_safe

    assert draw("{{ x }}", x="<b>Tom & 'Ann'</b>") == "&lt;b&gt;Tom &amp; &#39;Ann&#39;&lt;/b&gt;"
    assert draw("{{ x }}", x=mark_safe("<b>ok</b>")) == "<b>ok</b>"


def test_fill_escapes_the_values_and_keeps_the_sentence():
    html = draw('{{ _("%(n)s tokens")|fill(n=name) }}', name="<i>")
    assert html == "&lt;i&gt; tokens"
    with translation.override("pl"):
        html = draw('{{ _("The dragon is on field %(f)s")|fill(f=7) }}')
    assert html != "The dragon is on field 7" and "7" in html  # Polish, with the number


def test_add_is_djangos_add_and_numbers_are_not_localised():
    # Django's add truncates a float to an int before adding: boards relied on it.
    assert draw("{{ x|add(-15) }}", x=34.5) == "19"
    assert draw("{{ x|add(y)|add(2) }}", x=10, y=10) == "22"
    with translation.override("pl"):
        assert draw('<rect x="{{ x }}"/>', x=2.5) == '<rect x="2.5"/>'


@pytest.mark.parametrize(
    ("value", "max_value", "width", "expected"),
    [(3, 7, 100, "43"), (1, 2, 5, "2"), (1, 0, 10, "0"), ("a", 1, 1, "")],
)
def test_widthratio_rounds_as_django_does(value, max_value, width, expected):
    assert draw("{{ widthratio(a, b, c) }}", a=value, b=max_value, c=width) == expected


def test_a_choice_is_a_link_with_the_matchs_urls_and_none_is_plain():
    choice = Choice(key="k", path="die-red", label="Take <red>", action_json=None)
    source = "{% call board_choice(c, extra_class='x') %}<rect/>{% endcall %}"
    match = SimpleNamespace(pk=41, version=3)
    html = draw(source, c=choice, match=match)
    assert html.startswith('<a href="/m/41/?path=die-red"') and html.endswith("><rect/></a>")
    assert 'class="board-choice x"' in html and 'aria-label="Take &lt;red&gt;"' in html
    assert 'hx-get="/m/41/panel/?path=die-red"' in html
    assert draw(source, c=None, match=match) == "<rect/>"


def test_a_final_choice_posts_its_action_with_every_attribute_escaped():
    choice = Choice(key="k", path="d", label='"Go" & win', action_json='{"die": "red"}')
    match = SimpleNamespace(pk=41, version=3)
    html = draw("{% call board_choice(c) %}<rect/>{% endcall %}", c=choice, match=match)
    assert 'hx-post="/m/41/act/"' in html and 'class="board-choice final"' in html
    assert 'aria-label="&quot;Go&quot; &amp; win"' in html
    vals = re.search(r'hx-vals="([^"]*)"', html).group(1)
    assert json.loads(unescape(vals)) == {"action": '{"die": "red"}', "version": 3}
    assert "hx-get" not in html


@pytest.mark.parametrize(
    "value",
    ["\"Go\" & <win> 'now'", "plain", 7, None, "żółw ‹›", "safe", "lazy"],
)
def test_a_choices_attributes_are_escaped_as_django_escapes_them(value):
    from django.utils.html import conditional_escape
    from django.utils.safestring import mark_safe
    from django.utils.translation import gettext_lazy

    from games.panel.jinja import _escaped

    if value == "safe":
        value = mark_safe("<b>kept</b>")
    elif value == "lazy":
        value = gettext_lazy("Your turn")
    assert _escaped(value) == conditional_escape(value)


def test_secrets_are_labelled_panels_and_the_role_follows_the_choices():
    html = draw("{% call only_you() %}<p>mine</p>{% endcall %}")
    assert html == (
        '<section class="secrets" id="my-secrets"><h2>Only you can see this</h2><p>mine</p></section>'
    )
    assert draw("{{ board_role() }}", choices=None) == 'role="img"'
    assert draw("{{ board_role() }}", choices=SimpleNamespace(choices=[1])) == 'role="group"'


def test_every_registered_game_has_its_board_in_its_own_package():
    for entry in registry.registrations():
        template = JINJA.get_template(presenters.get(entry.key).BOARD_TEMPLATE)
        assert template.filename.startswith(str(entry.templates_dir)), entry.key


def test_render_to_string_of_a_board_goes_to_jinja2_and_other_templates_to_django():
    from django.template.loader import get_template

    board = get_template("games/hatchlings/board.jinja")
    assert board.backend.name == "jinja2"
    assert get_template("games/hatchlings/how_to_play.html").backend.name == "django"
    with pytest.raises(TemplateDoesNotExist):
        JINJA_BACKEND.get_template("games/hatchlings/how_to_play.html")


def test_make_messages_gathers_every_string_of_every_board():
    """Django's makemessages reads ``_("…")`` in any template it is given; a board
    that hid a string from it (say ``_("a" ~ b)``) would lose its translation."""

    from django.utils.translation.template import templatize

    marked = re.compile(r'_\(("[^"]+"|\'[^\']+\')\)')
    for entry in registry.registrations():
        for path in entry.templates_dir.rglob("*.jinja"):
            source = path.read_text()
            assert set(marked.findall(templatize(source))) == set(marked.findall(source)), path
            assert "_(" not in marked.sub("", source), f'{path}: a _( that is not _("…")'


def test_a_dicts_keys_read_as_stock_jinja2_reads_them():
    """The environment reads ``d.name`` from a plain dict's key without the
    AttributeError Jinja2 raises first, and answers as stock Jinja2 does:
    a key, a dict's own method (``d.items``) before a key of that name, a
    missing key undefined, and objects and dict subclasses as before."""
    import jinja2

    class Board(dict):
        @property
        def size(self):
            return "property"

    stock = jinja2.Environment(autoescape=True, undefined=JINJA.undefined)
    values = {
        "d": {"field": 80, "items": "a key named items", "n": None},
        "ns": SimpleNamespace(field=3),
        "sub": Board(size="key"),
    }
    source = (
        "{{ d.field }}|{{ d.n }}|{{ d.missing is undefined }}|{{ d.items is callable }}"
        "|{{ d['items'] }}|{{ d.get('field') }}|{{ ns.field }}|{{ sub.size }}"
    )
    ours = draw(source, **values)
    assert ours == stock.from_string(source).render(values)
    assert ours == "80|None|True|True|a key named items|80|3|property"
    assert type(JINJA).getattr is not jinja2.Environment.getattr


def test_every_board_draws_the_same_with_stock_jinja2s_lookups(monkeypatch):
    """Each game's board, drawn after a dozen random moves with its choices, is
    the same with the environment's dict lookups as with Jinja2's own."""
    import jinja2

    from tests.boards import board_with_choices

    for game in registry.all():
        name, context = board_with_choices(game)
        template = JINJA.get_template(name)
        ours = template.render(context)
        with monkeypatch.context() as patch:
            patch.setattr(type(JINJA), "getattr", jinja2.Environment.getattr)
            assert template.render(context) == ours, game.key


def test_a_part_drawn_once_is_drawn_again_alike_and_kept_per_language(monkeypatch):
    from games.panel import jinja

    monkeypatch.setattr(jinja, "_DRAWN_ONCE", {})
    source = '{% macro part(n) %}<i>{{ _("Field %(f)s")|fill(f=n) }}</i>{% endmacro %}{{ drawn_once(("k", n), part, n) }}'
    first = draw(source, n=3)
    assert first == "<i>Field 3</i>" == draw(source, n=3)
    with translation.override("pl"):
        assert draw(source, n=3) != first  # kept for each language apart
    assert len(jinja._DRAWN_ONCE) == 2


def test_a_row_drawn_once_keeps_only_what_it_can_name_and_nothing_highlighted(monkeypatch):
    """``each_drawn_once``: an item whose ``look()`` is None (a part holding a
    click) is drawn every time and never kept; a board that highlights changes
    keeps nothing and reads nothing kept."""
    from games.panel import jinja

    monkeypatch.setattr(jinja, "_DRAWN_ONCE", {})
    drawn = []

    class Part(SimpleNamespace):
        def look(self):
            return self.key

    source = (
        "{% macro part(p) %}{{ count(p) }}<b>{{ p.text }}</b>{% endmacro %}"
        '{{ each_drawn_once(("row",), parts, part) }}'
    )

    def count(part):
        drawn.append(part.text)
        return ""

    parts = [Part(key=("a",), text="A"), Part(key=None, text="click"), Part(key=("b",), text="B")]
    assert draw(source, parts=parts, count=count) == "<b>A</b><b>click</b><b>B</b>"
    assert draw(source, parts=parts, count=count) == "<b>A</b><b>click</b><b>B</b>"
    assert drawn == ["A", "click", "B", "click"]  # A and B kept, the click drawn again
    assert len(jinja._DRAWN_ONCE) == 2
    parts[0].text = "A marked"  # a highlight drawn into the part
    again = draw(source, parts=parts, count=count, changed=frozenset({"a"}))
    assert again == "<b>A marked</b><b>click</b><b>B</b>" and len(jinja._DRAWN_ONCE) == 2


@pytest.mark.parametrize("language", ["en", "pl", "cs"])
def test_nogis_fields_and_dice_drawn_once_are_those_drawn_afresh(language, monkeypatch):
    """Every seat's and a spectator's board, with and without choices, with and
    without what changed since the step before marked, is the same whether its
    fields and dice were kept from other boards or drawn now (a field's or a
    die's ``look()`` names all it shows)."""
    import random
    from types import SimpleNamespace as Match

    from games.panel import jinja
    from games.panel.presenters import MatchUrls

    game, presenter = registry.get("nogi"), presenters.get("nogi")
    board = JINJA.get_template(presenter.BOARD_TEMPLATE)
    rng = random.Random(7)
    state, names = game.setup(3, {}, "drawn-once"), ["A", "B", "C"]
    drawn = marked = 0
    before = {viewer: None for viewer in (None, 0, 1, 2)}
    kept_from_earlier = {}  # every part kept from every earlier board of the test

    def render(context, kept):
        monkeypatch.setattr(jinja, "_DRAWN_ONCE", kept)
        return board.render(context)

    with translation.override(language):
        for step in range(60):
            seats = game.current_seats(state)
            if not seats:
                break
            for viewer in (None, 0, 1, 2):
                view = presenters.seat_view(game, state, viewer, names, step)
                choices = None
                if viewer in seats:
                    legal = game.legal_actions(state, viewer)
                    choices = presenter.choice_level(legal, view, [])
                scene = presenter.scene(view, viewer, names, choices)
                context = {
                    "board": scene.board,
                    "choices": scene.choices,
                    "match": Match(pk=7, version=step),
                    "urls": MatchUrls.of(7),
                }
                assert render(context, kept_from_earlier) == render(context, {})
                drawn += 1
                if before[viewer] is not None:
                    context["changed"] = frozenset(presenter.changed(before[viewer], view))
                    marked_now = render(context, kept_from_earlier)
                    assert marked_now == render(context, {})
                    marked += marked_now.count('class="changed-mark"') > 0
                before[viewer] = view
            state = game.apply(state, seats[0], rng.choice(game.legal_actions(state, seats[0])))[0]
    assert drawn > 100 and marked > 50

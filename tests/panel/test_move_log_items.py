"""The move log's lines, drawn in Python by ``{% move_log_items %}``."""

import re
from datetime import UTC, datetime

from django.template import engines
from django.utils import timezone, translation
from django.utils.safestring import mark_safe

from games.panel.move_log import LogLine

FIRST = datetime(2026, 10, 25, 0, 30, tzinfo=UTC)  # 02:30 CEST in Warsaw
SECOND = datetime(2026, 10, 25, 1, 30, tzinfo=UTC)  # 02:30 CET, the repeated hour

# What the templates drew with Django's own loops before the tag: the oracle.
LOOP = (
    "{% load smoki %}{% for line in log %}"
    '<li value="{{ line.seq }}">{% if line.who %}<span class="who">{{ line.who }}</span>{% endif %}'
    "{% if with_times %}"
    "<time datetime=\"{{ line.created_at|date:'c' }}\">"
    '{{ line.created_at|moment:"SHORT_DATETIME_FORMAT" }}</time>{% endif %}'
    '{% for sentence in line.sentences %}<span class="sentence">{{ sentence }}</span> {% endfor %}'
    "</li>{% endfor %}"
)


def lines():
    return [
        LogLine(
            seq=1, who="Ann <b>", actor_kind="human", created_at=FIRST, sentences=["moves & wins"]
        ),
        LogLine(
            seq=2,
            who="",
            actor_kind="bot",
            created_at=SECOND,
            sentences=[mark_safe("<em>Bot</em> rolls 6"), "<script>x</script>"],
        ),
    ]


def draw(source: str, **context) -> str:
    html = engines["django"].from_string(source).render(context)
    return re.sub(r">\s+<", "><", html.strip())


def test_the_lines_equal_the_template_loops_they_replace():
    with timezone.override("Europe/Warsaw"), translation.override("pl"):
        for with_times in (False, True):
            tag = draw(
                "{% load smoki %}{% move_log_items log with_times=with_times %}",
                log=lines(),
                with_times=with_times,
            )
            assert tag == draw(LOOP, log=lines(), with_times=with_times)


def test_the_lines_escape_what_is_not_marked_safe():
    html = draw("{% load smoki %}{% move_log_items log %}", log=lines())
    assert '<span class="who">Ann &lt;b&gt;</span>' in html
    assert "moves &amp; wins" in html
    assert "<em>Bot</em> rolls 6" in html
    assert "&lt;script&gt;x&lt;/script&gt;" in html and "<script>" not in html


def test_the_panel_shows_the_newest_line_first_and_times_in_the_viewers_zone():
    newest_first = draw("{% load smoki %}{% move_log_items log newest_first=True %}", log=lines())
    assert newest_first.index('value="2"') < newest_first.index('value="1"')
    with timezone.override("Europe/Warsaw"), translation.override("en"):
        timed = draw("{% load smoki %}{% move_log_items log with_times=True %}", log=lines())
    assert 'datetime="2026-10-25T02:30:00+02:00"' in timed
    assert 'datetime="2026-10-25T02:30:00+01:00"' in timed
    assert "CEST" in timed and "CET<" in timed


def test_no_lines_draw_nothing():
    assert draw("{% load smoki %}{% move_log_items log %}", log=[]) == ""

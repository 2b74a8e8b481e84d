"""The ``smoki`` template library: the panel's formats (``games.panel.formats``)
for the Django templates."""

from django import template

from games.panel import formats

register = template.Library()
register.filter("duration", formats.duration)
register.filter("moment", formats.moment)
register.simple_tag(formats.move_log_items, name="move_log_items")

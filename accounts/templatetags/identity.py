"""``{% avatar user 96 %}``: a player's picture, or the identicon drawn from
their username when they have none (``accounts.identicon``). Decorative:
the name is always written beside it, so it carries no text of its own."""

from django import template
from django.utils.html import format_html

from accounts.identicon import identicon_svg

register = template.Library()


@register.simple_tag
def avatar(user, size: int = 96, css_class: str = "avatar"):
    profile = getattr(user, "profile", None)
    picture = getattr(profile, "picture", None)
    if picture:
        return format_html(
            '<img class="{}" src="{}" width="{}" height="{}" alt="">',
            css_class,
            picture.url,
            size,
            size,
        )
    return identicon_svg(user.username, size, css_class)

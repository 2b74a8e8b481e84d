from functools import cache

from django.conf import settings

from accounts.selectors import preferences
from games import selectors


def service_worker(request):
    """Pages register the service worker in production only: in development
    the static files keep their names while they change, and a cache would
    hold stale copies."""
    return {"service_worker": not settings.DEBUG}


def bell(request):
    """The unread count behind the bell in the top bar, the colours and the
    name, signed-in only. The count is read only if a template shows it (a
    fragment such as the match panel does not), and a view that has it
    already passes ``unread_notifications`` itself."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    chosen = preferences(user)
    return {
        "unread_notifications": cache(lambda: selectors.unread_count(user)),
        "theme": chosen["theme"],
        "my_name": chosen["name"],
    }

from games import selectors


def bell(request):
    """The unread count behind the bell in the top bar (one query, signed-in only)."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": selectors.unread_count(user)}

"""Reading numbers a browser sends, shared by every app's forms and views."""

MAX_ID = 2**63 - 1  # the largest id a database row can have


def whole_number(text, low: int = 0, high: int = MAX_ID) -> int | None:
    """``text`` as a whole number from ``low`` to ``high``, or None.

    Only ASCII digits count: ``str.isdigit`` accepts "²" and other digits
    ``int`` cannot read, and a huge number overflows dates and databases.
    """
    if not isinstance(text, str) or not (text.isascii() and text.isdigit()):
        return None
    if len(text) > len(str(high)):
        return None
    value = int(text)
    return value if low <= value <= high else None

"""A player's rating history as a small SVG line chart, drawn on the server.

The chart is data for a template (points and labels), never markup built
here; the page pairs it with a table for screen readers.
"""

from __future__ import annotations

from dataclasses import dataclass

WIDTH = 360
HEIGHT = 160
PAD_LEFT = 44
PAD_RIGHT = 8
PAD_TOP = 10
PAD_BOTTOM = 22


@dataclass
class Chart:
    width: int
    height: int
    points: str  # the polyline's "x,y x,y ..."
    dots: list[tuple[float, float, int]]  # each rated match: x, y, rating
    y_labels: list[tuple[float, int]]  # y, rating
    x_left: int
    x_right: int
    baseline: float


def rating_chart(values: list[int]) -> Chart | None:
    """``values``: the rating before the first match, then after each one."""
    if len(values) < 2:
        return None
    low, high = min(values), max(values)
    if high - low < 20:
        middle = (high + low) / 2
        low, high = middle - 10, middle + 10
    inner_w = WIDTH - PAD_LEFT - PAD_RIGHT
    inner_h = HEIGHT - PAD_TOP - PAD_BOTTOM

    def x(i: int) -> float:
        return round(PAD_LEFT + inner_w * i / (len(values) - 1), 1)

    def y(v: float) -> float:
        return round(PAD_TOP + inner_h * (high - v) / (high - low), 1)

    dots = [(x(i), y(v), v) for i, v in enumerate(values)]
    return Chart(
        width=WIDTH,
        height=HEIGHT,
        points=" ".join(f"{px},{py}" for px, py, _v in dots),
        dots=dots[1:],
        y_labels=[(y(v), round(v)) for v in (high, (high + low) / 2, low)],
        x_left=PAD_LEFT,
        x_right=WIDTH - PAD_RIGHT,
        baseline=HEIGHT - PAD_BOTTOM,
    )

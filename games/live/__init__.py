"""Live mode: a match's open pages hear of each change within a second.

``changes`` announces every committed change of a match on its topic;
``stream`` is what a page's events stream sends (versions and, to a seated
player, whether every seated human has the page open: "live"); ``offer`` is
"let's play live now". The carrier (Redis pub/sub or the in-process queues
with a probe) and the presence marks are the ``streams`` app's.
See docs/community.md, "Live mode"."""

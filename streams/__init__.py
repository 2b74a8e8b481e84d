"""Streams: the small publish/subscribe bus and the presence marks that open
pages listen on (a match's live page today; any other stream tomorrow).

Nothing here knows about matches: a writer publishes a short message on a
topic after its transaction commits (``bus``), a stream waits for messages on
the topics it serves, and a connected stream marks its member present under a
topic for a few seconds at a time (``presence``)."""

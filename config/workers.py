"""Are the Celery workers alive and consuming? The check an operator, a
process supervisor and the fault run use.

    python -m config.workers --node default@web1 --queue celery --queue mail --queue bots

For each named node, a ``ping`` over the broker's control channel must be
answered (the worker's main process is alive and reads the broker); for each
queue, a ``smoki.echo`` task sent to it must be run and acknowledged
(``config.celery.echo`` writes a key back to the broker's Redis): the queue
is consumed end to end. A worker can answer pings and still consume nothing
(its task channel stuck after a failed acknowledgement), so both are
checked. Exit status 0 when everything answered, 1 otherwise, with one line
per problem. Needs the Redis broker (``CELERY_BROKER_URL=redis://...``).
"""

from __future__ import annotations

import argparse
import sys
import time
import uuid


def ping(nodes: list[str], timeout: float = 3.0) -> dict[str, bool]:
    """Whether each node answered a control ``ping`` within ``timeout``."""
    from config.celery import app

    try:
        replies = app.control.ping(destination=nodes, timeout=timeout) or []
    except Exception:  # noqa: BLE001 - a broker that cannot be reached answers no one
        replies = []
    answered = {name for reply in replies for name in reply}
    return {node: node in answered for node in nodes}


def round_trip(queue: str, timeout: float = 30.0) -> str | None:
    """Send ``smoki.echo`` to ``queue`` and wait until a worker has run it:
    the name of that worker, or None if none did within ``timeout``. A send
    the broker refuses is tried again until the time is up."""
    import redis

    from config.celery import app, echo

    key = f"smoki:echo:{uuid.uuid4().hex}"
    client = redis.Redis.from_url(app.conf.broker_url, socket_timeout=2, socket_connect_timeout=2)
    deadline = time.monotonic() + timeout
    try:
        sent = False
        while time.monotonic() < deadline:
            if not sent:
                try:
                    echo.apply_async(args=(key,), queue=queue, retry=False, expires=timeout)
                    sent = True
                except Exception:  # noqa: BLE001 - the broker may be coming back
                    time.sleep(0.5)
                    continue
            try:
                value = client.get(key)
            except redis.RedisError:
                value = None
            if value is not None:
                client.delete(key)
                return value.decode() or "?"
            time.sleep(0.1)
        return None
    finally:
        client.close()


def check(nodes: list[str], queues: list[str], timeout: float = 30.0) -> list[str]:
    """Every problem found: a node that did not answer, a queue nobody consumed."""
    problems = []
    deadline = time.monotonic() + timeout
    missing = list(nodes)
    while missing:
        missing = [node for node, ok in ping(missing).items() if not ok]
        if not missing or time.monotonic() >= deadline:
            break
        time.sleep(1)
    problems += [f"worker {node} did not answer a ping" for node in missing]
    for queue in queues:
        left = max(1.0, deadline - time.monotonic())
        if round_trip(queue, timeout=left) is None:
            problems.append(f"no worker ran a task sent to queue {queue!r} within {timeout:g} s")
    return problems


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--node", action="append", default=[], help="a worker's node name")
    parser.add_argument("--queue", action="append", default=[], help="a queue to send an echo to")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds for the whole check")
    args = parser.parse_args(argv)
    problems = check(args.node, args.queue, args.timeout)
    for problem in problems:
        print(problem)
    if not problems:
        print(f"ok: {len(args.node)} workers answered, {len(args.queue)} queues consumed")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())

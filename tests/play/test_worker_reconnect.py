"""A worker outlives its broker: a Celery worker on a redis-server of its
own, which is stopped while the worker's every slot runs a task, then
frozen for longer than the socket timeout while tasks finish. Afterwards the
worker is alive, answers a ping and runs tasks sent to its queue
(``config.workers``), which before ``config.celery.Consumer`` and
``config.celery.Request`` it did not: it exited ("Unrecoverable error:
AttributeError('NoneType' object has no attribute 'hostname')") or, alive,
received nothing more after its acknowledgements failed ("Couldn't ack").
See tests/faults/broker_outage.py and docs/reliability.md."""

import shutil

import pytest

from tests.faults.broker_outage import Outage, scenario

pytestmark = [
    pytest.mark.redis,
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
]


def test_a_worker_consumes_again_after_its_redis_was_stopped_and_frozen():
    outage = Outage()
    try:
        problems = scenario(outage)
        log = outage.worker_log()
    finally:
        outage.close()
    assert problems == [], log[-4000:]
    assert "Unrecoverable error" not in log

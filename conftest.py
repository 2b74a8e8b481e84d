"""Test-wide setup.

- Celery runs tasks eagerly in tests unless a test starts a real worker.
- ``SMOKI_STRICT=1`` (set by .ci/run) turns every skipped test into a
  failure, so the PostgreSQL, Redis and browser tests cannot be skipped in CI.
"""

import os

import pytest

STRICT = os.environ.get("SMOKI_STRICT") == "1"
_skipped: list[str] = []


@pytest.fixture(autouse=True, scope="session")
def _celery_eager():
    from config.celery import app

    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    yield


def pytest_runtest_logreport(report):
    if STRICT and report.skipped:
        _skipped.append(f"{report.nodeid}: {report.longrepr}")


def pytest_sessionfinish(session, exitstatus):
    if STRICT and _skipped:
        print("\nSMOKI_STRICT=1: these tests were skipped, which CI counts as failure:")
        for line in _skipped:
            print("  " + line)
        session.exitstatus = 1

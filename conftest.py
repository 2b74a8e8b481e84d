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
    # Services queue tasks by name; load the task modules as a worker does, so
    # a name resolves to its task and runs eagerly instead of going to a broker.
    app.autodiscover_tasks(force=True)
    yield


@pytest.fixture(autouse=True, scope="session")
def _media_in_a_temporary_folder(tmp_path_factory):
    """Pictures the tests upload go to a folder of their own, never var/media."""
    from django.test import override_settings

    override = override_settings(MEDIA_ROOT=str(tmp_path_factory.mktemp("media")))
    override.enable()
    yield
    override.disable()


@pytest.fixture(autouse=True, scope="session")
def _no_development_push_keys():
    """The development VAPID keys `make run` keeps in var/ are not the tests':
    push is off unless a test turns it on, as on a fresh clone."""
    from django.test import override_settings

    override = override_settings(VAPID_KEYS={"private": "", "public": ""})
    override.enable()
    yield
    override.disable()


def pytest_runtest_logreport(report):
    # An expected failure (a known gap of the conformance kit, listed with its
    # reason in tests/conformance/kit.py) is reported as "skipped" too; it is
    # not a test that failed to run, so it does not count here.
    if STRICT and report.skipped and not hasattr(report, "wasxfail"):
        _skipped.append(f"{report.nodeid}: {report.longrepr}")


def pytest_sessionfinish(session, exitstatus):
    if STRICT and _skipped:
        print("\nSMOKI_STRICT=1: these tests were skipped, which CI counts as failure:")
        for line in _skipped:
            print("  " + line)
        session.exitstatus = 1

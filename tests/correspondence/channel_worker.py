"""A real Celery worker process for tests/correspondence/test_kill_worker.py.

It is Smoki's worker (``config.celery``) on the ``mail`` queue, with one
allowance the test's local receivers need, as the in-process webhook tests
grant it with a fixture: the name ``hook.test`` resolves to 127.0.0.1, the
loopback passes the address guard, and the receiver's own certificate
(``SMOKI_TEST_CA``) is trusted. Nothing else is changed.

    python tests/correspondence/channel_worker.py <node name>
"""

from __future__ import annotations

import os
import socket
import ssl
import sys
from pathlib import Path

BASE_DIR = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(BASE_DIR))
os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

import django  # noqa: E402

django.setup()

from config.celery import app  # noqa: E402
from games.correspondence import webhooks  # noqa: E402

_public_ip = webhooks.public_ip


def _resolve(host, port, type=socket.SOCK_STREAM):
    return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port))]


webhooks.public_ip = lambda address: address == "127.0.0.1" or _public_ip(address)
webhooks._resolve = _resolve
webhooks.tls_context = lambda: ssl.create_default_context(cafile=os.environ["SMOKI_TEST_CA"])

if __name__ == "__main__":
    app.worker_main(
        [
            "worker",
            "-Q",
            "mail",
            "-P",
            "solo",
            "-c",
            "1",
            "-l",
            "WARNING",
            "-n",
            sys.argv[1] if len(sys.argv) > 1 else "channels@%h",
            "--without-mingle",
            "--without-gossip",
            "--without-heartbeat",
        ]
    )

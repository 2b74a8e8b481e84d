"""Make the VAPID key pair web push needs (docs/operations.md).

Without options it prints a new pair as environment lines for production;
``--dev PATH`` writes one to PATH unless it exists (``make run`` keeps its
development pair in var/vapid.json, read by the settings)."""

import json
from pathlib import Path

from django.core.management.base import BaseCommand

from games.correspondence.push import new_vapid_keys


class Command(BaseCommand):
    help = "Make a VAPID key pair for web push."

    def add_arguments(self, parser):
        parser.add_argument("--dev", metavar="PATH", help="write a pair to PATH if missing")

    def handle(self, *args, dev=None, **options):
        if dev:
            path = Path(dev)
            if not path.exists():
                path.parent.mkdir(parents=True, exist_ok=True)
                path.write_text(json.dumps(new_vapid_keys()))
            return
        keys = new_vapid_keys()
        self.stdout.write(f"SMOKI_VAPID_PRIVATE_KEY={keys['private']}")
        self.stdout.write(f"SMOKI_VAPID_PUBLIC_KEY={keys['public']}")

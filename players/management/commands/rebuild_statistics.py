"""Write the statistics' results again from every finished match."""

from django.core.management.base import BaseCommand

from players import outcomes


class Command(BaseCommand):
    help = (
        "Rebuild the player pages' statistics (players.Outcome) from the finished matches, "
        "in the order they finished: once after the statistics arrive, or to repair them."
    )

    def handle(self, *args, **options):
        written = outcomes.rebuild()
        self.stdout.write(f"Wrote {written} results.")

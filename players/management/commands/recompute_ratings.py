"""Rebuild every stored rating from the history of finished matches."""

from django.core.management.base import BaseCommand

from players import ratings


class Command(BaseCommand):
    help = "Recompute all ratings (or one game's) from the finished rated matches, in order."

    def add_arguments(self, parser):
        parser.add_argument("--game", help="only this game key")

    def handle(self, *args, game=None, **options):
        rated = ratings.recompute(game)
        self.stdout.write(f"Rated {rated} matches again.")

"""Replay a finished match's public log from its revealed seed and report."""

from django.core.management.base import BaseCommand, CommandError

from games.history.verification import verify_match
from games.models import Match


class Command(BaseCommand):
    help = (
        "Replay a finished match from its revealed seed and confirm every roll and the final state."
    )

    def add_arguments(self, parser):
        parser.add_argument("match_id", type=int)

    def handle(self, match_id, **options):
        match = Match.objects.filter(pk=match_id).first()
        if match is None:
            raise CommandError(f"No match #{match_id}.")
        if not match.seed_revealed:
            raise CommandError("The seed is revealed only when the match has ended.")
        report = verify_match(match)
        self.stdout.write(f"seed {match.seed} sha256 {match.seed_hash}")
        self.stdout.write(f"seed matches its published hash: {report.seed_matches_hash}")
        self.stdout.write(f"moves replayed: {report.moves_checked}")
        self.stdout.write(f"moves whose events differ: {report.mismatched_moves or 'none'}")
        self.stdout.write(f"final state matches: {report.final_state_matches}")
        if report.error:
            self.stdout.write(f"error: {report.error}")
        if not report.ok:
            raise CommandError("Verification FAILED.")
        self.stdout.write(self.style.SUCCESS("Verification passed."))

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from games.engine import registry
from games.models import DeliveryStatus, Match, MatchStatus, Notification

pytestmark = pytest.mark.django_db


def test_demo_data_is_created_once_and_logins_work(client):
    call_command("demo")
    call_command("demo")
    users = get_user_model().objects
    assert set(users.values_list("username", flat=True)) == {"alice", "bob", "carol", "mod"}
    # One match of every registered game, in play.
    assert sorted(
        Match.objects.filter(status=MatchStatus.ACTIVE).values_list("game_key", flat=True)
    ) == sorted(game.key for game in registry.all())
    assert Match.objects.filter(status=MatchStatus.OPEN).count() == 1
    mod = users.get(username="mod")
    assert mod.is_staff and not mod.is_superuser and mod.has_perm("games.moderate_match")
    assert client.login(username="alice", password="smoki-demo-2026")


def test_the_demo_is_quiet_and_emails_nothing_of_its_own(capsys):
    """`make run` printed about a thousand lines of the demo's own "match started"
    and "your turn" emails: the demo keeps them in the bell, and says nothing
    at verbosity 0."""
    out = StringIO()
    call_command("demo", verbosity=0, stdout=out)
    assert out.getvalue() == ""
    rows = Notification.objects.all()
    assert rows.exists(), "the demo's news is still in the bell"
    assert not rows.filter(status=DeliveryStatus.PENDING).exists()
    assert set(rows.values_list("status", flat=True)) == {DeliveryStatus.SKIPPED}


@pytest.mark.django_db(transaction=True)
def test_announce_waits_for_the_site_then_prints_the_logins_and_the_address_last(live_server):
    call_command("demo", verbosity=0)
    out = StringIO()
    call_command("demo", announce=f"{live_server.url}/", stdout=out)
    lines = [line for line in out.getvalue().splitlines() if line.strip()]
    assert lines[-2] == f"Smoki is running at {live_server.url}/"
    assert "  alice / smoki-demo-2026" in lines
    assert lines.index("  alice / smoki-demo-2026") < len(lines) - 2
    assert any(line.startswith("Demo match (drako): /m/") for line in lines)


def test_announce_gives_up_on_a_site_that_never_answers():
    with pytest.raises(CommandError, match="did not answer"):
        call_command("demo", announce="http://127.0.0.1:9/", wait=0.5, stdout=StringIO())


def test_make_run_starts_one_scheduler_a_bot_worker_and_the_site_in_one_recipe_line():
    """A merge left `make run` with two recipes: the quiet one ended in a dangling
    `&` and a second, loud one started another worker with its own beat, so two
    schedulers sent every reminder twice and nothing served the bots' queue
    quietly. One recipe line hands over to one supervisor
    (`config/run_local.py`), which starts each process once."""
    import shutil
    import subprocess
    from pathlib import Path

    from config import run_local

    if shutil.which("make") is None:
        pytest.skip("make is not installed")
    root = Path(__file__).resolve().parents[2]
    dry = subprocess.run(
        ["make", "-n", "-s", "run", "UV=uv"], cwd=root, capture_output=True, text=True, check=True
    ).stdout.replace("\\\n", " ")
    assert dry.count("config.run_local") == 1
    assert "celery" not in dry and "runserver" not in dry  # only the supervisor starts them
    started = [" ".join(argv) for _name, argv in run_local.commands("127.0.0.1", 8000, "s")]
    assert sum(argv.count("--beat") for argv in started) == 1
    assert sum(" worker " in argv for argv in started) == 3
    assert sum("-Q bots" in argv for argv in started) == 1
    assert sum("-Q reviews" in argv for argv in started) == 1  # reviews never wait behind bots
    assert sum(" runserver " in argv for argv in started) == 1
    assert sum("demo --announce" in argv for argv in started) == 1

"""The strength benchmark (``tests/load/bot_strength.py``, ``make bot-strength``) at a
tiny size: it completes and prints its table for every game. Nothing is asserted
about strength here (docs/bots.md has the measured numbers)."""

import importlib.util
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[1] / "load" / "bot_strength.py"


def _load():
    spec = importlib.util.spec_from_file_location("bot_strength", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_strength_benchmark_completes_and_prints_its_table(capsys):
    bench = _load()
    assert bench.main(["--games", "2", "--rank-games", "1", "--iterations", "1"]) == 0
    out = capsys.readouterr().out
    rows = [line.split() for line in out.splitlines()[3:]]
    assert [row[0] for row in rows] == list(bench.CATALOG)
    for row in rows:
        assert row[1].endswith("%") and row[2].endswith("%"), row

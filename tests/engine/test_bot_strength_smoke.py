"""The strength benchmark (``tests/load/bot_strength.py``, ``make bot-strength``) at a
tiny size: it completes and prints its table for every game. Nothing is asserted
about strength here (docs/bots.md has the measured numbers)."""

import pytest

from tests.scripts import load_script


def test_the_strength_benchmark_completes_and_prints_its_tables(capsys):
    bench = load_script("bot_strength")
    assert bench.main(["--games", "2", "--rank-games", "1", "--iterations", "1"]) == 0
    captured = capsys.readouterr()
    duels, _sep, ranks = captured.out.partition("\n\n")
    rows = [line.split() for line in duels.splitlines()[3:]]
    assert [row[0] for row in rows] == list(bench.CATALOG)
    for row in rows:
        assert row[1].endswith("%") and row[3].endswith("%"), row
    # Strong among heuristic opponents with 3 and 5 players, wherever the game
    # allows them (Drako is for two): strong's rank and each opponent's.
    rank_rows = [line.split() for line in ranks.splitlines()[2:]]
    assert [(row[0], row[1]) for row in rank_rows] == [
        (key, n) for key in bench.CATALOG if key != "drako" for n in ("3", "5")
    ]
    for row in rank_rows:
        n = int(row[1])
        assert len(row) == 3 + n + 2, row  # key, players, games, strong and n-1 others, s.e., ahead
        assert all(1 <= float(rank) <= n for rank in row[3 : 3 + n]), row
    # The logged games give the same tables again.
    assert bench.tally(captured.err.splitlines()) == 0
    again = capsys.readouterr().out
    assert again.split("\n\n")[1].splitlines()[1:] == ranks.splitlines()[2:]


def test_tally_adds_up_the_logged_games_of_runs_over_separate_ranges(capsys):
    logged = [
        "game nogi-strong-heuristic-0 levels=strong,heuristic ranks=[1, 2]",
        "game nogi-strong-heuristic-1 levels=heuristic,strong ranks=[1, 2]",
        "something else",
        "game nogi-strong-heuristic-2 levels=strong,heuristic ranks=[1, 1]",
        "game nogi-strong-heuristic-2 levels=strong,heuristic ranks=[1, 1]",  # twice: once
        "game seven_dragons-rank3-0 levels=strong,heuristic,heuristic ranks=[2, 1, 3]",
        "game seven_dragons-rank3-1 levels=heuristic,strong,heuristic ranks=[3, 1, 2]",
    ]
    bench = load_script("bot_strength")
    assert bench.tally(logged) == 0
    out = capsys.readouterr().out
    assert "nogi            strong vs heuristic           3     1.5   50.0%" in out
    # Strong: 2, then 1; the seat after it: 1, then 2; the next: 3 and 3.
    assert "seven_dragons          3      2    1.50  1.50 3.00" in out


def test_the_wilson_interval():
    bench = load_script("bot_strength")
    z2 = 1.96**2
    # No point in 10 games: from 0 to z2 / (10 + z2); every point: the mirror.
    assert bench.wilson(0, 10) == pytest.approx((0.0, z2 / (10 + z2)))
    assert bench.wilson(10, 10) == pytest.approx((10 / (10 + z2), 1.0))
    low, high = bench.wilson(300, 400)
    assert (low, high) == pytest.approx((0.7053, 0.7899), abs=1e-4)


def test_parallel_games_give_the_same_results_as_one_process():
    """--jobs only spreads the games over processes: each game is the same game."""
    bench = load_script("bot_strength")
    budget = bench.Budget(iterations=2, seconds=None)
    one = bench.duel("nogi", 4, "strong", "heuristic", budget, {"iterations": 0, "seconds": 0.0})
    stats = {"iterations": 0, "seconds": 0.0}
    two = bench.duel("nogi", 4, "strong", "heuristic", budget, stats, workers=2)
    assert one == two
    assert stats["iterations"] > 0  # the workers' search statistics come back


def test_a_run_shared_by_ranges_plays_the_games_of_one_run(capsys):
    """--first numbers the games from there: games 0-1 and 2-3 in two runs are
    games 0-3 of one run, the same seeds and seats, so their points add up."""
    bench = load_script("bot_strength")
    budget = bench.Budget(iterations=2, seconds=None)

    def points(games, first=0):
        return games * bench.duel(
            "nogi",
            games,
            "strong",
            "heuristic",
            budget,
            {"iterations": 0, "seconds": 0.0},
            first=first,
        )

    assert points(2) + points(2, first=2) == pytest.approx(points(4))
    capsys.readouterr()
    bench.duel("nogi", 2, "strong", "heuristic", budget, {"iterations": 0, "seconds": 0.0}, first=2)
    logged = capsys.readouterr().err.split()
    assert "nogi-strong-heuristic-2" in logged and "nogi-strong-heuristic-0" not in logged


def test_a_search_setting_is_applied_to_every_game_and_checked(capsys):
    bench = load_script("bot_strength")
    try:
        assert (
            bench.main(
                ["--speed-only", "--iterations", "1", "--only", "nogi", "--set", "max_candidates=2"]
            )
            == 0
        )
        assert bench.bots.search_settings(bench.bots.bot_module("drako"))["max_candidates"] == 2
    finally:
        bench._apply_overrides({})  # every game's own SEARCH back
    assert bench.bots.bot_module("drako").SEARCH == {"max_iterations": 36}
    # Drakon's editions share one module: its own SEARCH comes back too.
    assert bench.bots.bot_module("drakon_classic").SEARCH == {"max_iterations": 24}
    assert not hasattr(bench.bots.bot_module("nogi"), "SEARCH")
    with pytest.raises(SystemExit):
        bench.main(["--set", "no_such_setting=1"])
    assert "not a search setting" in capsys.readouterr().err

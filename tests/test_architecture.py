"""The project's import contracts: apps, the rooms of games, no cycles.

The contracts live in pyproject.toml ([tool.importlinter]); this test runs them
so that `make test` refuses an import between apps the wrong way (the matches
importing the ratings above them), an import that climbs a room of ``games``
(the move path importing the panel, the engine importing Django models) or
closes a cycle. The other tests prove the checks can fail: a graph with one
climbing import is refused by each layers contract.
"""

import tomllib
from pathlib import Path

import grimp
import pytest
from importlinter.cli import lint_imports
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    exit_code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    assert exit_code == 0, capsys.readouterr().out


def _config() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]


def _layers_contract(contract_id: str) -> LayersContract:
    config = _config()
    (layers,) = [c for c in config["contracts"] if c.get("id") == contract_id]
    options = {k: v for k, v in layers.items() if k not in ("id", "name", "type")}
    session = {"root_packages": config["root_packages"]}
    return LayersContract(name=layers["name"], session_options=session, contract_options=options)


@pytest.mark.parametrize(
    ("contract_id", "importer", "imported"),
    [
        ("apps", "games.play.services", "players.ratings"),
        ("apps", "accounts.services", "games.models"),
        ("apps", "players.views", "ladders.selectors"),
        ("rooms", "games.play.services", "games.web.match_views"),
        ("rooms", "games.play.services", "games.panel.build"),
        ("rooms", "games.dispatch.notifications", "games.correspondence.compose"),
        ("rooms", "games.engine.registry", "games.models"),
    ],
)
def test_an_import_climbing_a_layer_is_refused(contract_id, importer, imported):
    graph = grimp.build_graph(*_config()["root_packages"], cache_dir=None)
    contract = _layers_contract(contract_id)
    assert contract.check(graph, verbose=False).kept
    graph.add_import(importer=importer, imported=imported, line_number=1, line_contents="")
    assert not contract.check(graph, verbose=False).kept


@pytest.mark.parametrize("contract_id", ["apps", "rooms"])
def test_the_architecture_notes_show_the_layers_as_they_are(contract_id):
    """docs/architecture.md draws both layer contracts; they must be the ones enforced."""
    (layers,) = [c["layers"] for c in _config()["contracts"] if c.get("id") == contract_id]
    notes = (ROOT / "docs" / "architecture.md").read_text()
    assert "```\n" + "\n".join(layers) + "\n```" in notes

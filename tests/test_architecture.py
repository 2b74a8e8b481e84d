"""The project's import layers and the absence of import cycles.

The contracts live in pyproject.toml ([tool.importlinter]); this test runs them
so that `make test` refuses an import that climbs a layer (a service importing
a view, the engine importing Django models) or closes a cycle. The second test
proves the check can fail: a graph with one climbing import is refused.
"""

import tomllib
from pathlib import Path

import grimp
from importlinter.cli import lint_imports
from importlinter.contracts.layers import LayersContract

ROOT = Path(__file__).resolve().parent.parent


def test_the_import_contracts_hold(capsys, monkeypatch):
    monkeypatch.chdir(ROOT)
    exit_code = lint_imports(config_filename=str(ROOT / "pyproject.toml"), no_cache=True)
    assert exit_code == 0, capsys.readouterr().out


def _layers_contract() -> LayersContract:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c for c in config["contracts"] if c["type"] == "layers"]
    session = {"root_packages": config["root_packages"]}
    return LayersContract(name=layers["name"], session_options=session, contract_options=layers)


def test_an_import_climbing_a_layer_is_refused():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    graph = grimp.build_graph(*config["root_packages"], cache_dir=None)
    assert _layers_contract().check(graph, verbose=False).kept
    graph.add_import(
        importer="games.play.services", imported="games.views", line_number=1, line_contents=""
    )
    assert not _layers_contract().check(graph, verbose=False).kept


def test_the_architecture_notes_show_the_layers_as_they_are():
    """docs/architecture.md draws the layers; they must be the ones enforced."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in config["contracts"] if c["type"] == "layers"]
    notes = (ROOT / "docs" / "architecture.md").read_text()
    assert "```\n" + "\n".join(layers) + "\n```" in notes

"""Loading a script of ``tests/load`` as a module, for the tests that run it small."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

LOAD = Path(__file__).resolve().parent / "load"


def load_script(name: str) -> ModuleType:
    """``tests/load/<name>.py`` as the module ``name``: registered by that name,
    so a script's ``--jobs`` can send its functions to worker processes."""
    spec = importlib.util.spec_from_file_location(name, LOAD / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module

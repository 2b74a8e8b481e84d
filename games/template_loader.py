"""Find each registered game's templates in its own package (``<package>/templates``).

A game registered anywhere, even by the test suite alone, brings its board
templates with it: no settings change per game.
"""

from __future__ import annotations

from django.template.loaders.filesystem import Loader as FilesystemLoader

from games.engine import registry


class CatalogLoader(FilesystemLoader):
    def get_dirs(self):
        return [entry.templates_dir for entry in registry.registrations()]

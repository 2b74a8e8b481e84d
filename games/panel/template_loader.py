"""Find each registered game's templates in its own package (``<package>/templates``).

A game registered anywhere, even by the test suite alone, brings its
templates with it: no settings change per game. Its board (``*.jinja``) is a
Jinja2 template, found there by games/jinja.py; Django's engine passes it by,
so ``render_to_string`` of a board goes to the Jinja2 engine.
"""

from __future__ import annotations

from django.template.loaders.filesystem import Loader as FilesystemLoader

from games.engine import registry


class CatalogLoader(FilesystemLoader):
    def get_dirs(self):
        return [entry.templates_dir for entry in registry.registrations()]

    def get_template_sources(self, template_name):
        if template_name.endswith(JINJA_SUFFIX):
            return
        yield from super().get_template_sources(template_name)


JINJA_SUFFIX = ".jinja"

"""The production static files storage: WhiteNoise's hashed and compressed
copies, of the site's own scripts minified first.

``static/js/`` is written to be read (every script says why it does what it
does, in comments), and a phone on a slow line should not pay for that: at
``collectstatic`` each of the site's scripts loses its comments and spaces
(``rjsmin``, which changes nothing else) before it is hashed and compressed,
so the hash names the minified file and the gzip and Brotli copies are of it.
Development (``DEBUG``: Django's plain storage) serves the scripts as
written. Other packages' scripts (htmx, the admin's) are left as they come.
"""

from __future__ import annotations

from pathlib import Path

import rjsmin
from whitenoise.storage import CompressedManifestStaticFilesStorage

#: The scripts minified: the site's own, under ``static/js/``.
MINIFIED = "js/"


class MinifiedCompressedManifestStaticFilesStorage(CompressedManifestStaticFilesStorage):
    def post_process(self, paths, dry_run=False, **options):
        """Minify the collected copy of each of the site's scripts, and hash
        and compress that copy: ``paths`` names where each file is read from
        (its source folder), so a minified script is named as this storage's
        own file."""
        if not dry_run:
            paths = dict(paths)
            for name in paths:
                if name.startswith(MINIFIED) and name.endswith(".js"):
                    minify(Path(self.path(name)))
                    paths[name] = (self, name)
        yield from super().post_process(paths, dry_run, **options)


def minify(path: Path) -> None:
    """The script at ``path`` without its comments and spaces (minifying a
    minified script again changes nothing)."""
    source = path.read_text(encoding="utf-8")
    path.write_text(rjsmin.jsmin(source), encoding="utf-8")

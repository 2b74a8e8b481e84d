"""Copy the game-icons pictures Smoki draws into the repository.

The icons come from the game-icons.net collection (CC BY 3.0), as packed for
npm in ``@iconify-json/game-icons``. Only the paths of the icons listed in
``ICONS`` are kept, in ``games/panel/game_icons.json``, with each icon's author for
the about page, so the site never needs npm or the network at run time.

    python tools/vendor_icons.py                 # npm pack into a temporary folder
    python tools/vendor_icons.py path/icons.json # an icons.json already at hand

Adding an icon: add its name and author (the folder it lives in on
game-icons.net, e.g. https://game-icons.net/1x1/lorc/dragon-head.html) to
``ICONS``, run this script and commit the JSON.
"""

from __future__ import annotations

import json
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

PACKAGE = "@iconify-json/game-icons"
ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "games" / "panel" / "game_icons.json"
FAVICON = ROOT / "static" / "icons" / "favicon.svg"
#: The site's icon: the dragon head, white on the site's accent red.
FAVICON_ICON, FAVICON_BACK = "dragon-head", "#b4321f"

AUTHORS = {
    "lorc": ("Lorc", "https://lorcblog.blogspot.com"),
    "delapouite": ("Delapouite", "https://delapouite.com"),
}

#: Icon name -> author folder on game-icons.net.
ICONS = {
    # Nogi za pas!
    "dragon-head": "lorc",
    "mountains": "lorc",
    "castle": "lorc",
    "rabbit": "delapouite",
    # Drakon's chambers
    "dungeon-gate": "delapouite",
    "two-coins": "delapouite",
    "grab": "lorc",
    "crumbling-ball": "lorc",
    "clockwise-rotation": "delapouite",
    "back-forth": "lorc",
    "feather": "lorc",
    "harp": "delapouite",
    "key": "lorc",
    "magic-portal": "lorc",
    "whirlwind": "lorc",
    "psychic-waves": "lorc",
    "exit-door": "delapouite",
    "well": "delapouite",
    "treasure-map": "lorc",
    "vortex": "lorc",
    "crystal-ball": "lorc",
    # Drako
    "dwarf-face": "delapouite",
    # The lobby's tile of Seven Dragons
    "dragon-spiral": "lorc",
}


def icons_json(argv: list[str]) -> tuple[dict, str]:
    if argv:
        path = Path(argv[0])
        package = json.loads((path.parent / "package.json").read_text())
        return json.loads(path.read_text()), package["version"]
    with tempfile.TemporaryDirectory() as folder:
        subprocess.run(["npm", "pack", PACKAGE, "--silent"], cwd=folder, check=True)
        archive = next(Path(folder).glob("*.tgz"))
        with tarfile.open(archive) as tar:
            icons = json.load(tar.extractfile("package/icons.json"))
            version = json.load(tar.extractfile("package/package.json"))["version"]
    return icons, version


def main(argv: list[str]) -> None:
    data, version = icons_json(argv)
    size = data.get("width", 512)
    kept = {}
    for name, author in sorted(ICONS.items()):
        kept[name] = {"author": author, "body": data["icons"][name]["body"]}
    OUT.write_text(
        json.dumps(
            {
                "source": f"{PACKAGE} {version}",
                "collection": "https://game-icons.net",
                "licence": "CC BY 3.0",
                "licence_url": "https://creativecommons.org/licenses/by/3.0/",
                "size": size,
                "authors": {key: {"name": n, "url": u} for key, (n, u) in AUTHORS.items()},
                "icons": kept,
            },
            indent=1,
            sort_keys=True,
            ensure_ascii=False,
        )
        + "\n"
    )
    FAVICON.parent.mkdir(parents=True, exist_ok=True)
    FAVICON.write_text(
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size} {size}">'
        f'<rect width="{size}" height="{size}" rx="{size // 6}" fill="{FAVICON_BACK}"/>'
        f'<g color="#fff">{kept[FAVICON_ICON]["body"]}</g></svg>\n'
    )
    print(f"{len(kept)} icons from {PACKAGE} {version} -> {OUT}, and {FAVICON}")


if __name__ == "__main__":
    main(sys.argv[1:])

"""The pinned releases' wheels, downloaded once into a cache the launch checks read (no torch, no GPU, no network
at test time).

    python tests/launch/wheels.py        # make wheels (run by make test before pytest): pip download --no-deps

Cache: ``.cache/wheels/`` in the repository (git-ignored), or ``$LAUNCH_WHEELS``.  The wheels are read as zip
files; verl's Hydra config tree is unpacked next to them once, since Hydra composes from a folder.
"""

from __future__ import annotations

import os
import subprocess
import sys
import zipfile
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
if str(ROOT) not in sys.path:  # run as a script from the repository
    sys.path.insert(0, str(ROOT))

from app.launch.releases import CHECKED, Release  # noqa: E402

CACHE = Path(os.environ.get("LAUNCH_WHEELS") or ROOT / ".cache" / "wheels")
# OpenRLHF publishes CPython-3.11 x86-64 wheels only: ask for that one whatever the interpreter running pip.
_TARGET = ("--only-binary=:all:", "--python-version", "3.11", "--implementation", "cp", "--platform",
           "manylinux1_x86_64")


def wheel_file(release: Release) -> Path | None:
    found = sorted(CACHE.glob(f"{release.package.replace('-', '_')}-{release.version}-*.whl"))
    return found[0] if found else None


def missing() -> list[Release]:
    return [r for r in CHECKED if wheel_file(r) is None]


def download() -> None:
    CACHE.mkdir(parents=True, exist_ok=True)
    for release in missing():
        subprocess.run([sys.executable, "-m", "pip", "download", "--quiet", "--no-deps", *_TARGET, "-d", str(CACHE),
                        release.pin], check=True)
    for release in CHECKED:
        print(f"{release.pin}: {wheel_file(release).name}")


class Wheel:
    """One release's wheel: its files by their path inside the package tree (``verl/trainer/main_ppo.py``)."""

    def __init__(self, release: Release) -> None:
        path = wheel_file(release)
        if path is None:
            raise FileNotFoundError(f"{release.pin} is not in {CACHE}: run `make wheels`")
        self.release, self.zip = release, zipfile.ZipFile(path)
        self.paths: dict[str, str] = {}
        for name in self.zip.namelist():
            inner = name.split("/purelib/", 1)[1] if ".data/purelib/" in name else name  # OpenRLHF's layout
            self.paths[inner] = name

    def has(self, path: str) -> bool:
        return path in self.paths

    def text(self, path: str) -> str:
        return self.zip.read(self.paths[path]).decode("utf-8")

    def under(self, folder: str) -> list[str]:
        return sorted(p for p in self.paths if p.startswith(folder))

    def unpack(self, folder: str) -> Path:
        """``folder`` unpacked once into the cache (Hydra composes from a directory)."""
        dest = CACHE / f"{self.release.package}-{self.release.version}"
        marker = dest / folder / ".unpacked"
        if not marker.exists():
            for path in self.under(folder):
                target = dest / path
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(self.zip.read(self.paths[path]))
            marker.touch()
        return dest / folder


@cache
def wheel(release: Release) -> Wheel:
    return Wheel(release)


if __name__ == "__main__":
    download()

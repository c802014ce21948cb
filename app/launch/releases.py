"""The framework releases the launch commands are written for, and where their files are published.

Each command is checked against the wheel of exactly this release (``tests/launch/``: ``make wheels`` downloads them
once with ``pip download --no-deps``), and every source link points at the release's tag, not at a moving branch.
TRL's configs extend ``transformers.TrainingArguments`` and its recipe starts with ``accelerate launch``: those two
wheels are pinned too, so that every TRL flag and launcher option is checked against a released file.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Release:
    """One release on PyPI and its tag on GitHub."""

    framework: str   # the id the page and the API use (verl | openrlhf | trl), or a helper package
    name: str        # as the project writes it
    package: str     # the PyPI name (pip download --no-deps <package>==<version>)
    version: str
    repo: str        # GitHub owner/name
    tag: str
    src: str = ""    # the folder the package sits in inside the repository ("src/" for transformers)

    @property
    def pin(self) -> str:
        return f"{self.package}=={self.version}"

    @property
    def label(self) -> str:
        return f"{self.name} {self.version}"

    def url(self, path: str) -> str:
        """A file of this release on GitHub: ``path`` as it sits in the repository at the tag."""
        return f"https://github.com/{self.repo}/blob/{self.tag}/{path}"


# The versions the package registry serves (checked with `pip download --no-deps <pin>` on 2026-12-01).
VERL = Release("verl", "verl", "verl", "0.9.1", "verl-project/verl", "v0.9.1")
OPENRLHF = Release("openrlhf", "OpenRLHF", "openrlhf", "0.11.2", "OpenRLHF/OpenRLHF", "v0.11.2")
TRL = Release("trl", "TRL", "trl", "1.16.0", "huggingface/trl", "v1.16.0")
TRANSFORMERS = Release("transformers", "Transformers", "transformers", "5.24.0", "huggingface/transformers",
                       "v5.24.0", "src/")
ACCELERATE = Release("accelerate", "Accelerate", "accelerate", "1.15.0", "huggingface/accelerate", "v1.15.0",
                     "src/")

FRAMEWORKS: tuple[Release, ...] = (VERL, OPENRLHF, TRL)   # one command each, in the page's order
CHECKED: tuple[Release, ...] = (*FRAMEWORKS, TRANSFORMERS, ACCELERATE)  # the wheels the checks read

# SPDX-License-Identifier: MIT
"""sandbox/README.md names every REST method the sandbox answers, so its list stays the truth."""
import pathlib
import re

from flickr_sandbox.methods import METHODS

README = pathlib.Path(__file__).resolve().parents[1] / "README.md"


def _named(text: str) -> set[str]:
    """Full names (`flickr.a.b`) and the README's short forms: `flickr.photos.notes.add` /
    `edit` / `delete` names three methods."""
    names = set(re.findall(r"`(flickr(?:\.\w+)+)`", text))
    for first, rest in re.findall(r"`(flickr(?:\.\w+)+)`((?:\s*/\s*`\w+`)+)", text):
        stem = first.rsplit(".", 1)[0]
        names.update(f"{stem}.{verb}" for verb in re.findall(r"`(\w+)`", rest))
    return names


def test_every_method_is_in_the_readme() -> None:
    named = _named(README.read_text(encoding="utf-8"))
    missing = sorted(set(METHODS) - named)
    print(f"{len(METHODS)} methods answered, {len(named & set(METHODS))} named in README.md")
    assert not missing, f"sandbox/README.md does not name: {missing}"

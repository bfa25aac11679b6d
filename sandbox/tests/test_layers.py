# SPDX-License-Identifier: MIT
"""The sandbox is a layered program: its imports form no cycle, and go only down the layers.

The graph and the rules come from the one checker of both packages, Tests/python/layers.py (every
import counts, those inside functions and ``if TYPE_CHECKING:`` blocks too: a type checker follows
them, and a cycle through one is still a cycle of ideas); this file holds the sandbox's table, the
one of docs/sandbox.md, "Layers", and its own rules.
"""
from __future__ import annotations

import pathlib
import sys

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "flickr_sandbox"
sys.path.insert(0, str(PACKAGE.parents[1] / "Tests" / "python"))
import layers  # noqa: E402  (the shared checker)

# Bottom first. A module imports modules of its own layer or of a layer below it, never above;
# within a layer the acyclic test keeps the order. A module of a subpackage is named "methods.NAME"
# or "pictures.NAME"; the table names the package ("methods", "pictures") for all of them.
LAYERS: list[tuple[str, set[str]]] = [
    ("base", {"constants", "errors", "params", "catalogue", "settings", "budget", "limits"}),
    ("state", {"store", "seed", "seed_extras", "seed_photos", "downloads"}),
    ("pictures", {"pictures"}),
    ("protocol", {"oauth", "auth", "multipart", "envelope", "images", "tls", "request", "response"}),
    ("methods and faults", {"methods", "faults", "videos"}),
    ("endpoints", {"rest", "uploads", "oauth_endpoints", "files", "pages"}),
    ("server", {"server"}),
    ("entry", {"__init__", "__main__", "launch", "export"}),
]
CLIENT = "flickr"


def short(name: str) -> str:
    """A module's name as the table gives it: below flickr_sandbox ("__init__" for the package)."""
    return "__init__" if name == PACKAGE.name else name.removeprefix(PACKAGE.name + ".")


#: LAYERS in the checker's terms: absolute names, the package for "__init__".
TABLE = [{PACKAGE.name if name == "__init__" else f"{PACKAGE.name}.{name}" for name in members}
         for _, members in LAYERS]


def import_graph() -> dict[str, set[str]]:
    """The graph by the table's names."""
    return {short(name): {short(target) for target in targets}
            for name, targets in layers.graph(PACKAGE).items()}


def test_the_graph_is_read():
    """The reader sees what is there (else the tests below would pass on an empty graph)."""
    graph = import_graph()
    assert {"rest", "uploads", "files", "oauth_endpoints", "faults", "request"} <= graph["server"]
    assert "methods.registry" in graph["methods.photos"]
    assert "request" in graph["rest"] and "store" in graph["request"]
    assert {"pictures.jpeg", "pictures.png", "pictures.scenes"} <= graph["pictures.cache"]
    assert "pictures" in graph["files"]


def test_no_import_cycle():
    graph = layers.graph(PACKAGE)
    assert not layers.cycles(graph), "import cycles:\n" + layers.describe_cycles(graph)


def test_every_module_is_in_a_layer():
    unplaced = layers.unplaced(layers.graph(PACKAGE), TABLE)
    assert unplaced == [], f"{unplaced} in no layer: add them to LAYERS here and to docs/sandbox.md"


def test_imports_go_down_the_layers_only():
    graph = layers.graph(PACKAGE)
    upward = [f"{short(module)} ({LAYERS[layers.layer_of(module, TABLE)][0]}) imports {short(target)} "
              f"({LAYERS[layers.layer_of(target, TABLE)][0]})" for module, target in layers.upward(graph, TABLE)]
    print(f"{len(graph)} modules, {sum(map(len, graph.values()))} imports, {len(upward)} upwards")
    assert upward == []


def test_the_sandbox_imports_nothing_of_the_client():
    """It runs without libflickr.so and the binding: the C tests start it with the system Python."""
    assert layers.imports_from(PACKAGE, CLIENT) == {}


@pytest.mark.parametrize("layer", [name for name, _ in LAYERS])
def test_the_docs_show_the_same_layers(layer):
    docs = (PACKAGE.parents[1] / "docs" / "sandbox.md").read_text(encoding="utf-8")
    row = next((line for line in docs.splitlines() if line.startswith(f"| {layer} |")), None)
    assert row is not None, f"docs/sandbox.md has no row for the layer {layer!r}"
    members = dict(LAYERS)[layer]
    named = {name.strip("`").removesuffix(".py").replace("/*", "").replace("/", ".")
             for name in row.split("|")[2].replace(",", " ").split() if name.startswith("`")}
    assert named == members, f"docs/sandbox.md's {layer!r} row names {sorted(named)}, the test {sorted(members)}"

# SPDX-License-Identifier: MIT
"""The sandbox is a layered program: its imports form no cycle, and go only down the layers.

The graph is read from the source with ``ast`` (every import, those inside functions and
``if TYPE_CHECKING:`` blocks too: a type checker follows them, and a cycle through one is still
a cycle of ideas). The layer table is the one of docs/sandbox.md, "Layers".
"""
from __future__ import annotations

import ast
import pathlib

import pytest

PACKAGE = pathlib.Path(__file__).resolve().parents[1] / "flickr_sandbox"

# Bottom first. A module imports modules of its own layer or of a layer below it, never above;
# within a layer the acyclic test keeps the order. A module of a subpackage is named "methods.NAME"
# or "pictures.NAME"; the table names the package ("methods", "pictures") for all of them.
LAYERS: list[tuple[str, set[str]]] = [
    ("base", {"constants", "errors", "params", "catalogue", "settings"}),
    ("state", {"store", "seed"}),
    ("pictures", {"pictures"}),
    ("protocol", {"oauth", "auth", "multipart", "envelope", "images", "tls", "request", "response"}),
    ("methods and faults", {"methods", "faults"}),
    ("endpoints", {"rest", "uploads", "oauth_endpoints", "files"}),
    ("server", {"server"}),
    ("entry", {"__init__", "__main__", "launch"}),
]
OUTSIDE = "(the client: flickr)"


def module_names() -> dict[str, pathlib.Path]:
    """Every module of the package by dotted name below flickr_sandbox ("__init__" is the package)."""
    names = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = path.relative_to(PACKAGE).with_suffix("").parts
        if parts[-1] == "__init__" and len(parts) > 1:
            parts = parts[:-1]
        names[".".join(parts)] = path
    return names


def _target(parts: list[str], name: str | None, modules: dict[str, pathlib.Path]) -> str:
    """The module an import of ``name`` from package or module ``parts`` loads."""
    base = ".".join(parts) or "__init__"
    if name is not None:
        child = ".".join([*parts, name])
        if child in modules:
            return child
    return base


def imports_of(module: str, path: pathlib.Path, modules: dict[str, pathlib.Path]) -> set[str]:
    """The sandbox modules ``module`` imports (OUTSIDE for the client, flickr, or above the package)."""
    is_package = path.name == "__init__.py"
    package = [] if module == "__init__" else module.split(".") if is_package else module.split(".")[:-1]
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                if node.level - 1 > len(package):
                    found.add(OUTSIDE)  # from .. import x: above the package
                    continue
                parts = package[:len(package) - (node.level - 1)] + (node.module.split(".") if node.module else [])
            else:
                absolute = (node.module or "").split(".")
                if absolute[:1] == ["flickr"]:
                    found.add(OUTSIDE)
                    continue
                if absolute[:1] != ["flickr_sandbox"]:
                    continue  # the standard library
                parts = absolute[1:]
            found.update(_target(parts, alias.name, modules) for alias in node.names)
        elif isinstance(node, ast.Import):
            for alias in node.names:
                absolute = alias.name.split(".")
                if absolute[0] == "flickr_sandbox":
                    found.add(_target(absolute[1:], None, modules))
                elif absolute[0] == "flickr":
                    found.add(OUTSIDE)
    found.discard(module)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = module_names()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def layer_of(module: str) -> int:
    top = module.split(".")[0]
    for index, (_, members) in enumerate(LAYERS):
        if top in members:
            return index
    raise LookupError(f"{module} is in no layer: add it to LAYERS here and to docs/sandbox.md")


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """A cycle of the graph as a path (first module repeated at the end), or None."""
    state: dict[str, str] = {}  # "open" while on the DFS path, "done" after
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = "open"
        path.append(node)
        for nxt in sorted(graph.get(node, ())):
            if state.get(nxt) == "open":
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                cycle = visit(nxt)
                if cycle:
                    return cycle
        path.pop()
        state[node] = "done"
        return None

    for start in sorted(graph):
        if start not in state:
            cycle = visit(start)
            if cycle:
                return cycle
    return None


def test_the_graph_is_read():
    """The reader sees what is there (else the tests below would pass on an empty graph)."""
    graph = import_graph()
    assert {"rest", "uploads", "files", "oauth_endpoints", "faults", "request"} <= graph["server"]
    assert "methods.registry" in graph["methods.photos"]
    assert "request" in graph["rest"] and "store" in graph["request"]
    assert {"pictures.jpeg", "pictures.png", "pictures.scenes"} <= graph["pictures.cache"]
    assert "pictures" in graph["files"]


def test_no_import_cycle():
    graph = import_graph()
    cycle = find_cycle(graph)
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


def test_the_cycle_finder_finds_one():
    assert find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert find_cycle({"a": {"b"}, "b": set()}) is None


def test_every_module_is_in_a_layer():
    for module in import_graph():
        layer_of(module)


def test_imports_go_down_the_layers_only():
    upward = []
    for module, imported in sorted(import_graph().items()):
        for target in sorted(imported - {OUTSIDE}):
            if layer_of(target) > layer_of(module):
                upward.append(f"{module} ({LAYERS[layer_of(module)][0]}) imports {target} "
                              f"({LAYERS[layer_of(target)][0]})")
    assert upward == []


def test_the_sandbox_imports_nothing_of_the_client():
    """It runs without libflickr.so and the binding: the C tests start it with the system Python."""
    assert [m for m, imported in import_graph().items() if OUTSIDE in imported] == []


@pytest.mark.parametrize("layer", [name for name, _ in LAYERS])
def test_the_docs_show_the_same_layers(layer):
    docs = (PACKAGE.parents[1] / "docs" / "sandbox.md").read_text(encoding="utf-8")
    row = next((line for line in docs.splitlines() if line.startswith(f"| {layer} |")), None)
    assert row is not None, f"docs/sandbox.md has no row for the layer {layer!r}"
    members = dict(LAYERS)[layer]
    named = {name.strip("`").removesuffix(".py").replace("/*", "").replace("/", ".")
             for name in row.split("|")[2].replace(",", " ").split() if name.startswith("`")}
    assert named == members, f"docs/sandbox.md's {layer!r} row names {sorted(named)}, the test {sorted(members)}"

# SPDX-License-Identifier: MIT
"""The package is built in layers (docs/python.md), and its import graph has no cycle.

The graph is drawn from the source files with `ast`, so it holds every import statement wherever
it stands: at the top of a module, inside a function (a lazy import still depends on its target)
and under ``if TYPE_CHECKING:`` (the type checker follows it). ``from X import a`` is an edge to the
module X.a when there is one, else to X (a name X defines); a package's ``__init__`` counts only
where it is named, not behind each of its submodules, since Python runs it before them anyway.

The sandbox (flickr/sandbox) is in the graph, but only cycles that take in a module outside it are
reported: the sandbox is being restructured separately, and its own cycles are fixed there.
"""
from __future__ import annotations

import ast
import os
import pathlib
import re
import subprocess
import sys

from libtest import PACKAGE_DIR

SANDBOX = "flickr.sandbox"

#: Lowest first. A module imports from its own layer or the ones below it (the cycle test keeps a
#: layer's own imports acyclic); docs/python.md says why each module sits where it does.
LAYERS = [
    {"flickr.errors", "flickr.values", "flickr.tokens", "flickr._interrupt", "flickr._files"},
    {"flickr._ffi"},
    {"flickr._response"},
    {"flickr.api", "flickr.client", "flickr.async_client", "flickr.urls", "flickr.upload", "flickr._oauth_steps"},
    {"flickr._login", "flickr._loopback", "flickr.oauth"},
    {"flickr"},
    {"flickr.cli", "flickr.__main__"},  # and every flickr.cli.* module
]

#: The one import upwards: `Flickr.oauth` and `Flickr.authenticate_*` hand out the OAuth layer's
#: object. It stays lazy (inside those methods) so that `import flickr` loads no http.server.
UPWARD = {("flickr.client", "flickr.oauth")}


def modules() -> dict[str, pathlib.Path]:
    """Every module of the package by dotted name (a package under its own name)."""
    found = {}
    for path in sorted((PACKAGE_DIR / "flickr").rglob("*.py")):
        parts = path.relative_to(PACKAGE_DIR).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def imports_of(name: str, path: pathlib.Path, known: set[str]) -> set[str]:
    """The package's modules that `name` (at `path`) imports."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    targets: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                parts = alias.name.split(".")
                held = [".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in known]
                targets.update(held[:1])
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[:len(package.split(".")) - (node.level - 1)]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                if f"{source}.{alias.name}" in known:
                    targets.add(f"{source}.{alias.name}")
                elif source in known:
                    targets.add(source)
    return targets


def graph() -> dict[str, set[str]]:
    found = modules()
    return {name: imports_of(name, path, set(found)) for name, path in found.items()}


def cycles(edges: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected components that hold a cycle (Tarjan's algorithm), each sorted."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for target in sorted(edges.get(node, ())):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1 or node in edges.get(node, ()):
                found.append(sorted(component))

    for node in sorted(edges):
        if node not in index:
            visit(node)
    return found


def in_sandbox(name: str) -> bool:
    return name == SANDBOX or name.startswith(SANDBOX + ".")


def test_the_cycle_finder_finds_cycles():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert cycles({"a": {"a"}, "b": set()}) == [["a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_every_kind_of_import():
    edges = graph()
    assert "flickr._ffi" in edges["flickr.client"]  # from . import _ffi
    assert "flickr.oauth" in edges["flickr.client"]  # lazy, in a method, and under TYPE_CHECKING
    assert "flickr" in edges["flickr.cli.common"]  # from .. import Flickr: the package itself
    assert "flickr.sandbox.__main__" in edges["flickr.cli.sandbox"]
    assert any(in_sandbox(name) for name in edges) and len(edges) > 40


def test_no_import_cycle_outside_the_sandbox():
    edges = graph()
    found = [component for component in cycles(edges) if not all(in_sandbox(name) for name in component)]
    described = ["; ".join(f"{name} -> {', '.join(sorted(edges[name] & set(component)))}" for name in component)
                 for component in found]
    assert not found, "import cycles:\n" + "\n".join(described)


def layer_of(name: str) -> int | None:
    for number, members in enumerate(LAYERS):
        if name in members or (name.startswith("flickr.cli.") and "flickr.cli" in members):
            return number
    return None


def test_every_module_has_a_layer_and_imports_none_above_it():
    edges = graph()
    unplaced = [name for name in edges if not in_sandbox(name) and layer_of(name) is None]
    assert not unplaced, f"modules without a layer in LAYERS (and docs/python.md): {unplaced}"
    upward = [(name, target) for name, targets in edges.items() if not in_sandbox(name)
              for target in targets if not in_sandbox(target) and (name, target) not in UPWARD
              and layer_of(target) > layer_of(name)]  # type: ignore[operator]
    assert not upward, f"imports from a higher layer: {upward}"


def test_import_flickr_loads_neither_the_oauth_layer_nor_http_server():
    """The one upward import stays lazy: a program that never logs in pays for no HTTP server."""
    probe = "import sys, flickr; print(sorted(m for m in ('flickr.oauth', 'flickr._login', 'http.server', " \
            "'webbrowser', 'urllib.request') if m in sys.modules))"
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, timeout=60,
                            env=dict(os.environ, PYTHONPATH=str(PACKAGE_DIR)))
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "[]"


def test_docs_table_is_this_table():
    """docs/python.md's table of layers names the modules of LAYERS, layer by layer."""
    text = (PACKAGE_DIR.parents[1] / "docs" / "python.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| \d+\. [^|]+\| ([^|]+) \|", text, flags=re.M)
    documented = [{name if name == "flickr" else f"flickr.{name}"
                   for name in re.findall(r"`([\w.]+)`", row) if not name.endswith(".py")} for row in rows]
    print(f"{len(documented)} layers in docs/python.md, {len(LAYERS)} in LAYERS")
    assert documented == LAYERS

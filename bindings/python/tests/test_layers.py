# SPDX-License-Identifier: MIT
"""The package is built in layers (docs/python.md), and its import graph has no cycle.

The graph is drawn from the source files with `ast`, so it holds every import statement wherever
it stands: at the top of a module, inside a function (a lazy import still depends on its target)
and under ``if TYPE_CHECKING:`` (the type checker follows it). ``from X import a`` is an edge to the
module X.a when there is one, else to X (a name X defines); a package's ``__init__`` counts only
where it is named, not behind each of its submodules, since Python runs it before them anyway.

The sandbox is a distribution of its own (sandbox/flickr_sandbox, with its own layer test): the
client imports it in one place only, lazily, where `flickr sandbox` runs it.
"""
from __future__ import annotations

import ast
import os
import pathlib
import re
import subprocess
import sys

from libtest import PACKAGE_DIR

SANDBOX = "flickr_sandbox"
#: The one module of the client that imports the sandbox (inside the function that runs it).
SANDBOX_IMPORTER = "flickr.cli.sandbox"

#: Lowest first. A module imports from its own layer or the ones below it (the cycle test keeps a
#: layer's own imports acyclic); docs/python.md says why each module sits where it does.
LAYERS = [
    {"flickr.errors", "flickr.values", "flickr.tokens", "flickr._interrupt", "flickr._files",
     "flickr._version"},
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
    assert "flickr.cli.common" in edges["flickr.cli.sandbox"]
    assert len(edges) > 25


def sandbox_imports(source: str) -> list[tuple[int, bool]]:
    """(line, at module level) of each import of the sandbox in the Python `source`."""
    tree = ast.parse(source)
    top = {id(node) for node in tree.body}
    found = []
    for node in ast.walk(tree):
        names = [alias.name for alias in node.names] if isinstance(node, ast.Import) else \
            [node.module or ""] if isinstance(node, ast.ImportFrom) and not node.level else []
        if any(in_sandbox(name) for name in names):
            found.append((node.lineno, id(node) in top))
    return found


def test_the_client_imports_the_sandbox_only_where_flickr_sandbox_runs_it():
    """The client installs and runs without flickr-sandbox: one lazy import, in the CLI's command."""
    importers = {name: sandbox_imports(path.read_text(encoding="utf-8")) for name, path in modules().items()}
    importers = {name: lines for name, lines in importers.items() if lines}
    assert set(importers) == {SANDBOX_IMPORTER}, importers
    assert not any(top for _, top in importers[SANDBOX_IMPORTER]), "the sandbox import must stay lazy"
    # The finder sees every form, at the top or in a function.
    assert sandbox_imports("import flickr_sandbox\ndef f():\n    from flickr_sandbox.launch import x\n"
                           "import flickr_sandbox.pictures as p\n") == [(1, True), (4, True), (3, False)]


def test_no_import_cycle():
    edges = graph()
    found = cycles(edges)
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
    unplaced = [name for name in edges if layer_of(name) is None]
    assert not unplaced, f"modules without a layer in LAYERS (and docs/python.md): {unplaced}"
    upward = [(name, target) for name, targets in edges.items()
              for target in targets if (name, target) not in UPWARD
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

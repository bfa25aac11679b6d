# SPDX-License-Identifier: MIT
"""The one import-layer checker of the Python packages (stdlib only): the client's
bindings/python/tests/test_layers.py (for the binding and the applications, apps/flickr_apps) and
the sandbox's sandbox/tests/test_layers.py each give it their package directory and their table of
layers, and keep only their own rules. `private_uses` finds what one package uses of another's
private names (the applications may use only the binding's public ones).

The graph is drawn from the source files with `ast`, so it holds every import statement wherever
it stands: at the top of a module, inside a function (a lazy import still depends on its target)
and under ``if TYPE_CHECKING:`` (the type checker follows it). Names are absolute dotted names
(a package under its own name). ``from X import a`` is an edge to the module X.a when there is
one, else to X (a name X defines); ``import X.Y`` is an edge to the longest of X.Y, X that is a
module of the package. A package's ``__init__`` counts only where it is named, not behind each of
its submodules, since Python runs it before them anyway.
"""
from __future__ import annotations

import ast
import pathlib
from typing import Iterable, Sequence


def modules(package_dir: pathlib.Path) -> dict[str, pathlib.Path]:
    """Every module of the package at `package_dir` by dotted name (a package under its own name)."""
    found = {}
    for path in sorted(package_dir.rglob("*.py")):
        parts = (package_dir.name, *path.relative_to(package_dir).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imported(name: str, path: pathlib.Path) -> list[tuple[int, bool, str, list[str]]]:
    """(line, at module level, absolute module, names taken from it) of every import in the
    module `name`."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
    top = {id(node) for node in tree.body}
    found: list[tuple[int, bool, str, list[str]]] = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, id(node) in top, alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            source = node.module or ""
            if node.level:  # relative: from the package, one level up per dot after the first
                base = package.split(".")[:max(0, len(package.split(".")) - (node.level - 1))]
                source = ".".join(base + ([node.module] if node.module else []))
            found.append((node.lineno, id(node) in top, source, [alias.name for alias in node.names]))
    return found


def imports_of(name: str, path: pathlib.Path, known: Iterable[str]) -> set[str]:
    """The modules of `known` that the module `name` (at `path`) imports (not itself)."""
    known = set(known)
    targets: set[str] = set()
    for _, _, source, names in _imported(name, path):
        if not names:  # import a.b.c: the longest of a.b.c, a.b, a that is known
            parts = source.split(".")
            held = [".".join(parts[:n]) for n in range(len(parts), 0, -1) if ".".join(parts[:n]) in known]
            targets.update(held[:1])
        for alias in names:
            if f"{source}.{alias}" in known:
                targets.add(f"{source}.{alias}")
            elif source in known:
                targets.add(source)
    targets.discard(name)
    return targets


def graph(package_dir: pathlib.Path) -> dict[str, set[str]]:
    """The package's import graph: each module to the package's modules it imports."""
    found = modules(package_dir)
    return {name: imports_of(name, path, found) for name, path in found.items()}


def imports_from(package_dir: pathlib.Path, top: str) -> dict[str, list[tuple[int, bool]]]:
    """(line, at module level) of each import of the package `top` (``flickr``, ``flickr_sandbox``),
    by importing module of the package at `package_dir`; modules that import none are left out."""
    found: dict[str, list[tuple[int, bool]]] = {}
    for name, path in modules(package_dir).items():
        lines = [(line, at_top) for line, at_top, source, names in _imported(name, path)
                 if any(named == top or named.startswith(top + ".")
                        for named in [source] + [f"{source}.{alias}".lstrip(".") for alias in names])]
        if lines:
            found[name] = sorted(lines)
    return found


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_uses(package_dir: pathlib.Path, top: str) -> list[tuple[str, int, str]]:
    """(module, line, what) of every use of a private name of the package `top` (``flickr``) by
    the package at `package_dir`: an import of a module of `top` one of whose parts starts with an
    underscore (``import flickr._ffi``, ``from flickr._harvest import Harvest``), an import of such
    a name (``from flickr import _ffi``, ``from flickr.files import _CREATE``), or such an
    attribute of a name bound by an import of `top` (``flickr._ffi.lib()``, ``errors._renamed``).
    Dunder names (``__version__``) are public."""
    found: list[tuple[str, int, str]] = []
    for name, path in modules(package_dir).items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        bound: set[str] = set()  # local names of top's modules and names
        for line, _, source, names in _imported(name, path):
            if source != top and not source.startswith(top + "."):
                continue
            found += [(name, line, source) for part in source.split(".") if _private(part)][:1]
            found += [(name, line, f"{source}.{alias}") for alias in names if _private(alias)]
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                bound.update((alias.asname or alias.name).split(".")[0] for alias in node.names
                             if alias.name == top or alias.name.startswith(top + "."))
            elif isinstance(node, ast.ImportFrom) and not node.level and node.module and \
                    (node.module == top or node.module.startswith(top + ".")):
                bound.update(alias.asname or alias.name for alias in node.names)
        for node in ast.walk(tree):
            if isinstance(node, ast.Attribute) and _private(node.attr):
                base = node.value
                while isinstance(base, ast.Attribute):
                    base = base.value
                if isinstance(base, ast.Name) and base.id in bound:
                    found.append((name, node.lineno, f"{ast.unparse(node.value)}.{node.attr}"))
    return sorted(set(found))


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


def describe_cycles(edges: dict[str, set[str]]) -> str:
    """Each cycle's modules with their imports inside it, one cycle a line ("" when none)."""
    return "\n".join("; ".join(f"{name} -> {', '.join(sorted(edges[name] & set(component)))}" for name in component)
                     for component in cycles(edges))


def layer_of(name: str, layers: Sequence[Iterable[str]]) -> int | None:
    """The index in `layers` (lowest first, sets of module names) of the layer holding `name`: the
    one naming it, else the one naming its nearest enclosing package other than the top one (a
    subpackage stands for its modules), else None."""
    parts = name.split(".")
    for length in range(len(parts), 1 if len(parts) > 1 else 0, -1):
        prefix = ".".join(parts[:length])
        for number, members in enumerate(layers):
            if prefix in members:
                return number
    return None


def unplaced(edges: dict[str, set[str]], layers: Sequence[Iterable[str]]) -> list[str]:
    """The modules of the graph in no layer."""
    return [name for name in sorted(edges) if layer_of(name, layers) is None]


def upward(edges: dict[str, set[str]], layers: Sequence[Iterable[str]],
           allowed: Iterable[tuple[str, str]] = ()) -> list[tuple[str, str]]:
    """The imports (importer, imported) from a lower layer to a higher one, but those `allowed`;
    every module must have a layer (see `unplaced`)."""
    allowed = set(allowed)
    found = []
    for name, targets in sorted(edges.items()):
        for target in sorted(targets):
            low, high = layer_of(name, layers), layer_of(target, layers)
            if low is None or high is None:
                raise LookupError(f"{name if low is None else target} is in no layer")
            if high > low and (name, target) not in allowed:
                found.append((name, target))
    return found

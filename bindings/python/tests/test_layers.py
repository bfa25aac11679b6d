# SPDX-License-Identifier: MIT
"""The package is built in layers (docs/python.md), and its import graph has no cycle.

The graph and the rules come from the one checker of both packages, Tests/python/layers.py (see
its doc for what counts as an import); this file holds the client's table and its own rules.

The sandbox is a distribution of its own (sandbox/flickr_sandbox, with its own layer test): the
applications import it in one place only, lazily, where `flickr sandbox` runs it. The applications
are one too (apps/flickr_apps): the binding reaches them only through its forwarders.
"""
from __future__ import annotations

import os
import re
import subprocess
import sys

from libtest import PACKAGE_DIR, REPO

sys.path.insert(0, str(REPO / "Tests" / "python"))
import layers  # noqa: E402  (the shared checker)

from libtest import APPS_DIR  # noqa: E402

SANDBOX = "flickr_sandbox"
#: The one module of the applications that imports the sandbox (inside the function that runs it).
SANDBOX_IMPORTER = "flickr_apps.cli.sandbox"
APPS = "flickr_apps"
#: The binding's only imports of the applications: its forwarders of documented names.
FORWARDERS = {"flickr.backup", "flickr.__main__"}

#: Lowest first. A module imports from its own layer or the ones below it (the cycle test keeps a
#: layer's own imports acyclic); docs/python.md says why each module sits where it does.
LAYERS = [
    {"flickr.errors", "flickr.values", "flickr.tokens", "flickr._interrupt", "flickr.files",
     "flickr._version", "flickr._header", "flickr._threaded_iter", "flickr._apps",
     "flickr.limits"},
    {"flickr._ffi"},
    {"flickr._response"},
    {"flickr._dispatch", "flickr._core", "flickr.api", "flickr.client", "flickr.async_client", "flickr.urls",
     "flickr.upload", "flickr._oauth_steps", "flickr.harvest",
     "flickr._harvest", "flickr._harvest.harvester", "flickr._harvest.report", "flickr._harvest.async_harvest"},
    {"flickr._login", "flickr._loopback", "flickr.oauth"},
    {"flickr"},
    {"flickr.backup", "flickr.__main__"},  # the forwarders to the applications (flickr_apps)
]

#: The applications' own layers (flickr-apps, apps/flickr_apps; docs/architecture.md), lowest
#: first: what downloads and the backup share, the backup, the command on top. An application
#: added to the package gets a row (a module in no layer fails below).
APPS_LAYERS = [
    {"flickr_apps", "flickr_apps._media"},  # the package holds only its doc
    {"flickr_apps.backup"},  # and its modules, export/ too
    {"flickr_apps.lifeboat"},  # a Data Lifeboat from an archive's files (docs/lifeboat.md)
    {"flickr_apps.cli"},  # and every flickr_apps.cli.* module
]

#: The one import upwards: `Flickr.oauth` and `Flickr.authenticate_*` hand out the OAuth layer's
#: object. It stays lazy (inside those methods) so that `import flickr` loads no http.server.
UPWARD = {("flickr.client", "flickr.oauth")}


def graph() -> dict[str, set[str]]:
    return layers.graph(PACKAGE_DIR / "flickr")


def test_the_cycle_finder_finds_cycles():
    assert layers.cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    assert layers.cycles({"a": {"a"}, "b": set()}) == [["a"]]
    assert layers.cycles({"a": {"b"}, "b": set()}) == []


def test_the_graph_sees_every_kind_of_import():
    edges = graph()
    assert "flickr._ffi" in edges["flickr.client"]  # from . import _ffi
    assert "flickr.oauth" in edges["flickr.client"]  # lazy, in a method, and under TYPE_CHECKING
    assert "flickr._apps" in edges["flickr.backup"]  # from ._apps import needed
    assert len(edges) > 25


def test_the_layer_rules_find_what_breaks_them():
    table = [{"p.low"}, {"p.high", "p.sub"}]
    edges = {"p.low": {"p.high"}, "p.high": {"p.low"}, "p.sub.x": {"p.low"}, "p.stray": set()}
    assert layers.upward(edges, table) == [("p.low", "p.high")]
    assert layers.upward(edges | {"p.stray": set()}, table, allowed={("p.low", "p.high")}) == []
    assert layers.layer_of("p.sub.x", table) == 1  # a subpackage stands for its modules
    assert layers.unplaced(edges, table) == ["p.stray"]


def test_the_client_imports_the_sandbox_only_where_flickr_sandbox_runs_it(tmp_path):
    """The command installs and runs without flickr-sandbox: one lazy import, in the CLI's command;
    the binding imports it nowhere."""
    assert layers.imports_from(PACKAGE_DIR / "flickr", SANDBOX) == {}
    importers = layers.imports_from(APPS_DIR / APPS, SANDBOX)
    assert set(importers) == {SANDBOX_IMPORTER}, importers
    assert not any(top for _, top in importers[SANDBOX_IMPORTER]), "the sandbox import must stay lazy"
    # The finder sees every form, at the top or in a function.
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "__init__.py").write_text(
        "import flickr_sandbox\ndef f():\n    from flickr_sandbox.launch import x\n"
        "import flickr_sandbox.pictures as p\nfrom .. import flickr_sandbox\n")
    assert layers.imports_from(tmp_path / "p", SANDBOX) == {"p": [(1, True), (3, False), (4, True), (5, True)]}


def test_the_binding_imports_the_applications_only_in_its_forwarders():
    """flickr-apps is no dependency of the binding: `flickr.backup` and `python -m flickr` forward
    to it, and nothing else of the binding imports it."""
    importers = layers.imports_from(PACKAGE_DIR / "flickr", APPS)
    print(f"binding modules importing {APPS}: {sorted(importers)}")
    assert set(importers) == FORWARDERS, importers


def test_flickr_backup_forwards_every_documented_name_of_the_backup():
    """`flickr.backup` (the binding's forwarder) gives each name of flickr_apps.backup's __all__,
    the same object; a name added there and not here fails."""
    import flickr.backup
    import flickr_apps.backup

    assert sorted(flickr.backup.__all__) == sorted(flickr_apps.backup.__all__)
    assert all(getattr(flickr.backup, name) is getattr(flickr_apps.backup, name) for name in flickr.backup.__all__)
    print(f"{len(flickr.backup.__all__)} names forwarded")


def test_no_import_cycle():
    edges = graph()
    assert not layers.cycles(edges), "import cycles:\n" + layers.describe_cycles(edges)


def test_the_applications_stand_in_layers_without_a_cycle():
    edges = layers.graph(APPS_DIR / APPS)
    assert not layers.cycles(edges), "import cycles:\n" + layers.describe_cycles(edges)
    unplaced = layers.unplaced(edges, APPS_LAYERS)
    assert not unplaced, f"modules without a layer in APPS_LAYERS: {unplaced}"
    upward = layers.upward(edges, APPS_LAYERS)
    print(f"{len(edges)} modules of the applications, {sum(map(len, edges.values()))} imports among them")
    assert not upward, f"imports from a higher layer: {upward}"


def test_the_applications_use_only_the_binding_s_public_names():
    """No `flickr._*` module, no `_` name imported from `flickr`, no `_` attribute of a name
    imported from it; and no import of the binding's forwarders, which lead back to them."""
    private = layers.private_uses(APPS_DIR / APPS, "flickr")
    assert not private, f"the applications use private names of the binding: {private}"
    for forwarder in FORWARDERS:
        assert layers.imports_from(APPS_DIR / APPS, forwarder) == {}, forwarder
    used = sum(len(lines) for lines in layers.imports_from(APPS_DIR / APPS, "flickr").values())
    print(f"{used} imports of the binding by the applications, none private")
    assert used > 20


def test_the_private_name_check_catches_each_kind(tmp_path):
    """A planted application importing the binding's private names in every form is caught, line
    by line; public names, dunders and its own underscore modules are not."""
    package = tmp_path / "planted"
    package.mkdir()
    (package / "__init__.py").write_text("")
    (package / "_own.py").write_text("X = 1\n")
    (package / "bad.py").write_text(
        "import flickr._ffi\n"                       # 1: a private module
        "from flickr._harvest import Harvest\n"      # 2: a name of a private module
        "from flickr import _ffi, Flickr\n"          # 3: a private module by name
        "from flickr.files import _CREATE, CREATE\n"  # 4: a private name
        "import flickr\n"
        "from flickr import errors as e\n"
        "def f():\n"
        "    from flickr import __version__\n"       # a dunder: public
        "    from ._own import X\n"                  # its own private module: its business
        "    flickr._ffi.lib()\n"                     # 10: a private attribute
        "    return e._renamed, flickr.Flickr, X\n")  # 11: a private attribute, through an alias
    found = layers.private_uses(package, "flickr")
    print(found)
    assert [(line, what) for _, line, what in found] == [
        (1, "flickr._ffi"), (2, "flickr._harvest"), (3, "flickr._ffi"), (4, "flickr.files._CREATE"),
        (10, "flickr._ffi"), (11, "e._renamed")]


def test_every_module_has_a_layer_and_imports_none_above_it():
    edges = graph()
    unplaced = layers.unplaced(edges, LAYERS)
    assert not unplaced, f"modules without a layer in LAYERS (and docs/python.md): {unplaced}"
    upward = layers.upward(edges, LAYERS, UPWARD)
    print(f"{len(edges)} modules, {sum(map(len, edges.values()))} imports, {len(upward)} upwards")
    assert not upward, f"imports from a higher layer: {upward}"


def test_import_flickr_loads_neither_the_oauth_layer_nor_http_server():
    """The one upward import stays lazy: a program that never logs in pays for no HTTP server."""
    probe = "import sys, flickr; print(sorted(m for m in ('flickr.oauth', 'flickr._login', 'http.server', " \
            "'webbrowser', 'urllib.request', 'flickr_apps', 'flickr.backup') if m in sys.modules))"
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


def documented_modules() -> tuple[set[str], set[str]]:
    """docs/python.md's "Public and private modules": the public modules, and the private packages
    (`flickr.x.*`: the modules inside flickr.x; none since the applications left)."""
    text = (REPO / "docs" / "python.md").read_text(encoding="utf-8")
    section = text.split("\n## Public and private modules\n", 1)[1].split("\n## ", 1)[0]
    listed = re.findall(r"^- `(flickr[\w.]*(?:\.\*)?)`", section, flags=re.M)
    return ({name for name in listed if not name.endswith(".*")},
            {name.removesuffix(".*") for name in listed if name.endswith(".*")})


def test_every_module_is_private_by_name_or_documented_public():
    public, private_packages = documented_modules()
    names = set(graph())
    print(f"{len(names)} modules: {len(public)} documented public, {len(private_packages)} private package(s)")
    assert len(public) >= 10 and private_packages == set(), (public, private_packages)
    assert public <= names, f"docs/python.md lists modules that do not exist: {sorted(public - names)}"
    undeclared = [name for name in sorted(names) if name not in public
                  and not any(part.startswith("_") for part in name.split("."))
                  and not any(name.startswith(package + ".") for package in private_packages)]
    assert not undeclared, f"neither underscore-prefixed nor in docs/python.md's public list: {undeclared}"
    named_private = [name for name in public if any(part.startswith("_") for part in name.split("."))]
    assert not named_private, f"documented public but named private: {named_private}"


def test_the_package_exports_only_public_names():
    """flickr.__all__: no underscore name (but __version__), each defined in a public module."""
    import inspect

    import flickr

    public, _ = documented_modules()
    owners = {}
    for name in flickr.__all__:
        value = getattr(flickr, name)
        owners[name] = value.__name__ if inspect.ismodule(value) else getattr(value, "__module__", "flickr")
    private = [name for name in flickr.__all__ if name.startswith("_") and name != "__version__"]
    assert not private, private
    from_private = {name: owner for name, owner in owners.items() if owner not in public}
    print(f"{len(flickr.__all__)} names exported from {len(set(owners.values()))} public modules")
    assert not from_private, f"exported from a private module: {from_private}"

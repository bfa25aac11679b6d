# SPDX-License-Identifier: MIT
"""The `flickr` command line's option handling: options anywhere after the command, help texts."""
import json
import os
import subprocess
import sys

import pytest

from libtest import CLIENT_PATH, cli_env, run_cli as run


def test_call_options_between_parameters(library_path, sandbox):
    result = run(sandbox, "call", "flickr.test.echo", "--xml", "a=b")
    assert result.returncode == 0, result.stderr
    assert "<a>b</a>" in result.stdout
    result = run(sandbox, "call", "--post", "flickr.test.echo", "a=1", "--json", "b=2", "--retries", "0", "c=3")
    assert result.returncode == 0, result.stderr
    answer = json.loads(result.stdout)
    assert [answer[k]["_text"] for k in "abc"] == ["1", "2", "3"]


def test_walk_options_between_parameters(library_path, sandbox):
    result = run(sandbox, "walk", "flickr.photos.getRecent", "--limit", "3", "per_page=2", "-v", "extras=tags")
    assert result.returncode == 0, result.stderr
    items = [json.loads(line) for line in result.stdout.splitlines()]
    assert len(items) == 3 and all("tags" in item for item in items)
    # per_page=2 was passed: two pages (logged by -v) for three items, where the default would fetch one.
    assert sum("flickr.photos.getRecent GET" in line for line in result.stderr.splitlines()) == 2


def test_upload_and_replace_options_between_files(library_path, sandbox, photo, tmp_path):
    second = tmp_path / "second.jpg"
    second.write_bytes(photo.read_bytes()[:5000])
    result = run(sandbox, "upload", str(photo), "--title", "Mixed", str(second), "--json")
    assert result.returncode == 0, result.stderr
    ids = [json.loads(line)["photo_id"] for line in result.stdout.splitlines()]
    assert len(ids) == 2
    info = json.loads(run(sandbox, "call", "flickr.photos.getInfo", f"photo_id={ids[1]}").stdout)
    assert info["photo"]["title"]["_text"] == "Mixed"
    replaced = run(sandbox, "replace", str(photo), "--json", ids[1])
    assert replaced.returncode == 0, replaced.stderr
    assert json.loads(replaced.stdout)["photo_id"] == ids[1]


def test_unknown_option_is_still_a_usage_error(library_path, sandbox):
    result = run(sandbox, "call", "flickr.test.echo", "--bogus", "a=b")
    assert result.returncode == 2
    assert "unrecognized arguments: --bogus" in result.stderr
    assert result.stdout == ""


def test_sandbox_takes_its_own_options_after_global_ones(library_path, sandbox):
    result = run(sandbox, "--retries", "1", "sandbox", "--help")
    assert result.returncode == 0, result.stderr
    assert "--latency-ms" in result.stdout  # the sandbox's own usage
    refused = run(sandbox, "-v", "sandbox", "--port", "0", "--no-such-option")
    assert refused.returncode == 2
    assert "--no-such-option" in refused.stderr


def run_without_the_sandbox(sandbox, *argv, pythonpath=CLIENT_PATH):
    """`flickr ARGV` with the client alone: PYTHONPATH without sandbox/, and no site-packages (-S),
    where a flickr-sandbox could be installed."""
    env = dict(cli_env(sandbox), PYTHONPATH=str(pythonpath))
    return subprocess.run([sys.executable, "-S", "-m", "flickr", *argv], capture_output=True, text=True,
                          timeout=60, env=env)


@pytest.mark.parametrize("argv", [["sandbox", "--port", "0"], ["sandbox", "--help"]])
def test_sandbox_not_installed_says_how_to_install_it_in_one_line(library_path, sandbox, argv):
    result = run_without_the_sandbox(sandbox, *argv)
    assert (result.returncode, result.stdout) == (2, ""), result.stderr
    assert result.stderr == ("flickr: the sandbox is a separate package: pip install flickr-sandbox "
                             "(from a checkout: pip install ./sandbox)\n")


def test_a_broken_sandbox_is_not_called_missing(library_path, sandbox, tmp_path):
    """Only flickr_sandbox itself missing means "install it": an import failing inside it is a bug."""
    (tmp_path / "flickr_sandbox").mkdir()
    (tmp_path / "flickr_sandbox" / "__init__.py").write_text("")
    (tmp_path / "flickr_sandbox" / "__main__.py").write_text("import no_such_module_of_the_sandbox\n")
    result = run_without_the_sandbox(sandbox, "sandbox", "--port", "0",
                                     pythonpath=os.pathsep.join((CLIENT_PATH, str(tmp_path))))
    assert result.returncode == 1 and "pip install" not in result.stderr, result.stderr
    assert result.stderr.startswith("flickr: unexpected error: ModuleNotFoundError: No module named "
                                    "'no_such_module_of_the_sandbox'"), result.stderr


def described_options(help_text: str) -> dict:
    """{invocation: description} for every argument argparse lists in `help_text` (an entry is a
    line indented by two spaces; its description follows on the line, or on the next, deeper one)."""
    entries, current = {}, None
    for line in help_text.splitlines():
        if line.startswith("  ") and not line.startswith("   "):
            invocation, _, description = line.strip().partition("  ")
            current = invocation
            entries[current] = description.strip()
        elif line.startswith("   ") and current is not None and line.strip():
            entries[current] = (entries[current] + " " + line.strip()).strip()
        else:
            current = None
    return entries


@pytest.mark.parametrize("command", [["upload"], ["replace"], ["download"], ["call"], ["walk"], ["auth", "login"],
                                     ["auth", "status"], ["auth", "logout"]])
def test_every_option_has_a_description(library_path, sandbox, command):
    result = run(sandbox, *command, "--help", env_extra={"COLUMNS": "80"})
    assert result.returncode == 0, result.stderr
    entries = described_options(result.stdout)
    assert "-h, --help" in entries and "--retries N" in entries
    undescribed = [invocation for invocation, description in entries.items() if not description]
    assert undescribed == []


def test_upload_help_describes_each_flag(library_path, sandbox):
    entries = described_options(run(sandbox, "upload", "--help").stdout)
    for flag in ("FILE", "--title TITLE", "--description DESCRIPTION", "--tags TAGS", "--public", "--private",
                 "--friends", "--family", "--safety-level {1,2,3}", "--content-type {1,2,3}", "--hidden {1,2}",
                 "--async", "--json"):
        assert entries.get(flag), flag
    assert "2 hidden" in entries["--hidden {1,2}"] and "3 restricted" in entries["--safety-level {1,2,3}"]

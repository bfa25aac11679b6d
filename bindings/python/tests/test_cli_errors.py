# SPDX-License-Identifier: MIT
"""No Python traceback reaches the terminal: a missing library, a closed stdout, an unexpected error."""
import os
import subprocess
import sys
import textwrap

import pytest

from flickr.tokens import TokenStore
from libtest import cli_env, run_cli as run

EXIT_NO_LIBRARY, EXIT_BROKEN_PIPE = 6, 141


@pytest.fixture(params=["missing", "not a library"])
def broken_library(request, tmp_path):
    if request.param == "missing":
        return str(tmp_path / "nowhere" / "libflickr.so.0")
    path = tmp_path / "libflickr.so.0"
    path.write_text("not an ELF file\n")
    return str(path)


@pytest.mark.parametrize("command", [
    ["call", "flickr.test.echo"],
    ["walk", "flickr.photos.getRecent"],
    ["upload", "{photo}"],
    ["replace", "{photo}", "123"],
    ["download", "123", "--dest", "{photo}.d"],
    ["auth", "status"],
    ["auth", "login", "--oob"],
    ["-v", "call", "flickr.test.echo", "--xml"],
])
def test_without_the_library_one_line_and_exit_6(sandbox, photo, broken_library, command):
    argv = [part.format(photo=photo) for part in command]
    # auth status looks for a stored login first: give it one to check, so it needs the library.
    store = photo.parent / "tokens.json"
    TokenStore(store).save(sandbox.api_key, {"oauth_token": sandbox.oauth_token,
                                             "oauth_token_secret": sandbox.oauth_token_secret, "username": "u"})
    result = run(sandbox, *argv, env_extra={"FLICKR_LIBRARY": broken_library, "FLICKR_TOKEN_STORE": str(store)})
    assert result.returncode == EXIT_NO_LIBRARY, result.stderr
    # auth status lists the stored logins (no library needed) before it checks the default one.
    assert result.stdout == ("* u (?) perms=?\n" if argv == ["auth", "status"] else "")
    (line,) = result.stderr.splitlines()
    assert line.startswith("flickr: libflickr could not be loaded; tried: " + broken_library)
    assert line.endswith("; set FLICKR_LIBRARY to the path of libflickr.so.0")


def test_commands_that_need_no_library_still_work_without_it(sandbox, broken_library):
    result = run(sandbox, "call", "--help", env_extra={"FLICKR_LIBRARY": broken_library})
    assert result.returncode == 0 and "usage: flickr call" in result.stdout


@pytest.mark.parametrize("command", [["walk", "flickr.photos.getRecent", "per_page=100", "--limit", "200"],
                                     ["call", "flickr.test.echo", "x=1"],
                                     ["call", "flickr.photos.getRecent", "--xml"]])
def test_closed_stdout_exits_141_quietly(library_path, sandbox, command):
    reader, writer = os.pipe()
    os.close(reader)  # the reader has gone before the first byte: every write fails with EPIPE
    try:
        result = subprocess.run([sys.executable, "-m", "flickr", *command], stdout=writer, stderr=subprocess.PIPE,
                                text=True, env=cli_env(sandbox), timeout=60)
    finally:
        os.close(writer)
    assert result.stderr == ""
    assert result.returncode == EXIT_BROKEN_PIPE


@pytest.mark.parametrize("command", ["walk flickr.photos.getRecent per_page=50", "call flickr.test.echo x=1"])
def test_piped_into_head(library_path, sandbox, command):
    result = subprocess.run(f"{sys.executable} -m flickr {command} | head -1", shell=True, capture_output=True,
                            text=True, env=cli_env(sandbox), timeout=60)
    assert result.returncode == 0
    assert result.stderr == ""  # neither a traceback nor "Exception ignored ... BrokenPipeError"
    assert len(result.stdout.splitlines()) == 1


UNEXPECTED = textwrap.dedent("""
    import sys
    from flickr_apps.cli import call, main

    def broken(args):
        raise ZeroDivisionError("a bug\\nover two lines")

    call.run = broken
    sys.exit(main(sys.argv[1:]))
""")


@pytest.mark.parametrize("verbose", [False, True])
def test_unexpected_error_is_one_line_traceback_only_with_v(sandbox, verbose):
    argv = ["call", "flickr.test.echo"] + (["-v"] if verbose else [])
    result = subprocess.run([sys.executable, "-c", UNEXPECTED, *argv], capture_output=True, text=True,
                            env=cli_env(sandbox), timeout=60)
    assert result.returncode == 1
    last = result.stderr.splitlines()[-1]
    assert last == "flickr: unexpected error: ZeroDivisionError: a bug\\x0aover two lines (-v shows where)"
    if verbose:
        assert "Traceback" in result.stderr and "in broken" in result.stderr
    else:
        assert result.stderr == last + "\n"


PROMPT_AT_EOF = textwrap.dedent("""
    import sys
    from flickr_apps.cli import call, main

    def prompts(args):
        return input("Answer: ")

    call.run = prompts
    sys.exit(main(sys.argv[1:]))
""")


def test_any_prompt_at_the_end_of_input_is_one_line(sandbox):
    """A prompt of any command that meets Ctrl-D or an empty stdin says so in one line, exit 1 (it
    was `unexpected error: EOFError`); the OAuth code prompt says more (test_cli_auth.py)."""
    result = subprocess.run([sys.executable, "-c", PROMPT_AT_EOF, "call", "flickr.test.echo"], input="",
                            capture_output=True, text=True, env=cli_env(sandbox), timeout=60)
    print(f"exit {result.returncode}: {result.stderr!r}")
    assert result.returncode == 1
    assert result.stderr == "flickr: the input ended before an answer was given\n"


def test_messages_name_the_commands_flags_not_c_options(sandbox):
    """`flickr call flickr.photos.getInfo` without photo_id said '... (FLICKR_OPT_CHECK_ARGUMENTS)'."""
    result = run(sandbox, "call", "flickr.photos.getInfo")
    print(f"exit {result.returncode}: {result.stderr!r}")
    assert result.returncode == 2
    assert result.stderr == 'flickr: flickr.photos.getInfo requires the argument "photo_id" (check_arguments)\n'


def test_every_c_option_is_named_by_a_flag_or_its_keyword():
    """Each option a message may name: the flag that sets it, which the command has, or else the
    binding's keyword; FLICKR_OPT_ never reaches the terminal."""
    from flickr import client, errors
    from flickr_apps.cli import build_parser
    from flickr_apps.cli.common import OPTION_FLAGS, error_text
    from flickr_apps.cli.completion import _subcommands

    keywords = {**client.STRING_OPTIONS, **client.NUMBER_OPTIONS}
    flags = {flag for command in _subcommands(build_parser()).values() for flag in command._option_string_actions}
    assert {name.lower() for name in OPTION_FLAGS} <= set(keywords)
    for keyword in keywords:
        error = errors.FlickrError(errors.EINVAL, f"a message (FLICKR_OPT_{keyword.upper()})")
        shown = error_text(error)[len("a message ("):-1]
        assert shown == OPTION_FLAGS.get(keyword.upper(), keyword)
        assert shown in flags or shown in keywords, shown
    print(f"{len(keywords)} options: {sum(name.lower() in keywords for name in OPTION_FLAGS)} named by a flag")


@pytest.mark.parametrize("buffered", [True, False])
@pytest.mark.parametrize("command", [["--help"], ["backup", "--help"], ["auth", "login", "--help"], ["--version"],
                                     ["methods", "--names"], ["completion", "bash"], ["help", "flickr.test.echo"],
                                     ["call", "flickr.test.echo", "x=1"]])
def test_stdout_on_a_full_disk_is_one_line_and_exit_7(library_path, sandbox, command, buffered):
    # /dev/full: every write fails with ENOSPC. Before: --help exited 0 with nothing written (argparse ignores
    # the error), methods and completion printed "unexpected error: OSError" and exited 1.
    env = cli_env(sandbox, env_extra={"PYTHONUNBUFFERED": "" if buffered else "1"})
    with open("/dev/full", "w") as full:
        result = subprocess.run([sys.executable, "-m", "flickr", *command], stdout=full, stderr=subprocess.PIPE,
                                text=True, env=env, timeout=60)
    print(command, buffered, result.returncode, result.stderr)
    assert result.stderr == "flickr: the disk is full (No space left on device): free some space and run it again\n"
    assert result.returncode == 7


def test_version_names_the_binding_and_the_library(library_path, sandbox, tmp_path):
    from flickr import __version__

    result = run(sandbox, "--version")
    assert (result.returncode, result.stderr) == (0, "")
    assert result.stdout == f"flickr {__version__}\nlibflickr {__version__}\n"
    # The applications' own module runs the same command (before: "No module named flickr_apps.cli.__main__").
    direct = subprocess.run([sys.executable, "-m", "flickr_apps.cli", "--version"], capture_output=True, text=True,
                            env=cli_env(sandbox), timeout=60)
    assert (direct.returncode, direct.stdout, direct.stderr) == (0, result.stdout, "")
    # Without the library: the binding's version, then the one line of exit code 6.
    result = run(sandbox, "--version", env_extra={"FLICKR_LIBRARY": str(tmp_path / "none.so")})
    assert (result.returncode, result.stdout) == (EXIT_NO_LIBRARY, f"flickr {__version__}\n")
    assert result.stderr.startswith("flickr: libflickr could not be loaded;") and result.stderr.count("\n") == 1


@pytest.mark.parametrize("option", [["--port", "-1"], ["--port", "65536"], ["--port", "0", "--latency-ms", "-5"],
                                    ["--port", "0", "--latency-ms", "10" * 15],
                                    ["--port", "0", "--max-upload-bytes", "-1"]])
def test_sandbox_numbers_out_of_range_are_usage_errors(library_path, sandbox, option):
    # Before: --port -1 gave "unexpected error: OverflowError" and exit 1; a negative latency or upload limit
    # was taken and a sandbox started.
    result = subprocess.run([sys.executable, "-m", "flickr", "sandbox", *option], capture_output=True, text=True,
                            env=cli_env(sandbox), timeout=60)
    print(option, result.returncode, result.stderr.splitlines()[-1:])
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.splitlines()[-1].startswith(f"flickr sandbox: error: argument {option[-2]}: invalid")


@pytest.mark.parametrize("limit", ["-1", "-5", "x", "1e3"])
def test_walk_limit_below_zero_is_a_usage_error(library_path, sandbox, limit):
    # Before: --limit -5 was taken: a page was asked for, nothing printed, exit 0.
    result = run(sandbox, "walk", "flickr.photos.getRecent", "--limit", limit)
    assert (result.returncode, result.stdout) == (2, "")
    assert result.stderr.splitlines()[-1] == (f"flickr walk: error: argument --limit: expected 0 to {2**63 - 1} "
                                              f"items, not '{limit}'")


@pytest.mark.parametrize("command", ["upload", "replace"])
def test_a_fifo_to_upload_is_named_for_what_it_is(library_path, sandbox, tmp_path, command):
    # Before: "no such file: FIFO", though it is there.
    fifo = tmp_path / "photo.jpg"
    os.mkfifo(fifo)
    result = run(sandbox, command, str(fifo), *(["123"] if command == "replace" else []))
    assert (result.returncode, result.stdout) == (2, "")
    wanted = "a file" if command == "replace" else "a file or a folder"
    assert result.stderr == f"flickr: not {wanted}: {fifo} (a FIFO)\n"
    absent = run(sandbox, command, str(tmp_path / "none.jpg"), *(["123"] if command == "replace" else []))
    assert absent.stderr == f"flickr: no such file: {tmp_path / 'none.jpg'}\n"


@pytest.mark.parametrize("dest", ["/dev/full", "file", "dangling"])
def test_download_dest_that_is_not_a_folder_says_so(library_path, sandbox, tmp_path, dest):
    # Before: "cannot create /dev/full: File exists".
    if dest == "file":
        dest = tmp_path / "file"
        dest.write_text("mine")
    elif dest == "dangling":
        dest = tmp_path / "dangling"
        dest.symlink_to(tmp_path / "nowhere")
    result = run(sandbox, "download", "123", "--dest", str(dest))
    kind = {"/dev/full": "a device", str(tmp_path / "file"): "a file"}.get(str(dest), "a link")
    assert (result.returncode, result.stderr) == (1, f"flickr: --dest {dest} is not a folder ({kind})\n")

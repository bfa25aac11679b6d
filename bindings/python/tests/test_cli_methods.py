# SPDX-License-Identifier: MIT
"""`flickr methods`, `flickr help`, `flickr completion` and the catalogue's verb in `flickr call`."""
import json
import os
import shlex
import shutil
import subprocess
import sys

from libtest import CLIENT_PATH, PYTHONPATH


def flickr(*argv, env_extra=None):
    env = dict(os.environ, PYTHONPATH=CLIENT_PATH, **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", "flickr", *argv], capture_output=True, text=True, env=env,
                          timeout=60)


def test_methods_lists_and_filters(library_path):
    everything = flickr("methods", "--names")
    assert everything.returncode == 0 and len(everything.stdout.split()) == 223
    search = flickr("methods", "photos.search").stdout.split()
    assert search == ["flickr.photos.search", "GET", "none"]
    pattern = flickr("methods", "flickr.groups.discuss.*", "--names").stdout.split()
    assert "flickr.groups.discuss.replies.getList" in pattern and all(".discuss." in n for n in pattern)
    missing = flickr("methods", "nothing-like-this")
    assert missing.returncode == 2 and "no method" in missing.stderr


def test_help_describes_a_method(library_path):
    result = flickr("help", "photos.delete")
    assert result.returncode == 0, result.stderr
    assert "permission: delete" in result.stdout and "verb: POST" in result.stdout
    assert "required:   photo_id" in result.stdout
    assert "https://www.flickr.com/services/api/flickr.photos.delete.html" in result.stdout
    assert flickr("help", "flickr.photos.getInfo", "--arguments").stdout.split() == ["photo_id", "secret"]
    typo = flickr("help", "flickr.photos.serch")
    assert typo.returncode == 2 and "did you mean flickr.photos.search" in typo.stderr
    assert "Traceback" not in typo.stderr


def complete(words, tmp_path, path=CLIENT_PATH):
    """Runs the bash completion function as bash would for `words` (the last one being typed), with
    `path` for PYTHONPATH (the client alone by default: no sandbox) and no site-packages (-S), where
    the sandbox may be installed (scripts/install-cli.sh puts it in build/venv)."""
    script = flickr("completion", "bash").stdout
    wrapper = tmp_path / "flickr"
    wrapper.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -S -m flickr \"$@\"\n")
    wrapper.chmod(0o755)
    program = (f"{script}\nCOMP_WORDS=({' '.join(shlex.quote(w) for w in words)})\n"
               f"COMP_CWORD={len(words) - 1}\n_flickr\nprintf '%s\\n' \"${{COMPREPLY[@]}}\"\n")
    env = dict(os.environ, PYTHONPATH=path, PATH=f"{tmp_path}:{os.environ['PATH']}")
    result = subprocess.run(["bash", "-c", program], capture_output=True, text=True, env=env, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout.split()


def test_bash_completion(library_path, tmp_path):
    assert "methods" in complete(["flickr", "me"], tmp_path)
    assert complete(["flickr", "call", "flickr.photos.sea"], tmp_path) == ["flickr.photos.search"]
    assert complete(["flickr", "call", "flickr.photos.getInfo", "ph"], tmp_path) == ["photo_id="]
    assert "group_id=" in complete(["flickr", "call", "flickr.groups.discuss.replies.getList", ""], tmp_path)
    # What offered nothing: a command not in the script's own list, subcommands, options.
    assert complete(["flickr", "re"], tmp_path) == ["replace"]
    assert complete(["flickr", "auth", "l"], tmp_path) == ["login", "logout"]
    assert complete(["flickr", "upload", "--ta"], tmp_path) == ["--tags"]
    assert complete(["flickr", "-v", "auth", "login", "--perms", "w"], tmp_path) == ["write"]
    assert complete(["flickr", "completion", ""], tmp_path) == ["bash", "fish", "zsh"]
    # bash hands `photo_id=<TAB>` over as "photo_id", "=", "": a value, no argument names.
    assert complete(["flickr", "call", "flickr.photos.getInfo", "photo_id", "=", ""], tmp_path) == []
    assert complete(["flickr", "call", "flickr.photos.getInfo", "photo_id", "=", "1", "s"], tmp_path) == ["secret="]
    zsh = flickr("completion", "zsh").stdout
    assert zsh.startswith("#compdef flickr") and "flickr __complete" in zsh


def test_bash_completes_an_option_value_after_equals(library_path, tmp_path):
    """bash hands `--perms=w<TAB>` over as "--perms", "=", "w" and replaces only the "w"."""
    assert complete(["flickr", "auth", "login", "--perms", "=", "w"], tmp_path) == ["write"]
    assert complete(["flickr", "auth", "login", "--perms", "="], tmp_path) == ["delete", "read", "write"]
    (tmp_path / "tags-file").write_text("")  # a value without choices: file names, as after a space
    assert complete(["flickr", "upload", "--tags", "=", f"{tmp_path}/tags-"], tmp_path) == [f"{tmp_path}/tags-file"]
    assert complete(["flickr", "upload", "--nothing", "=", ""], tmp_path) == []
    # zsh and fish hand over the whole word, and replace it whole.
    from flickr_apps.cli import build_parser
    from flickr_apps.cli.completion import candidates
    assert candidates(build_parser(), ["auth", "login", "--perms=w"]) == ("words", ["--perms=write"])


def test_sandbox_options_complete_from_its_own_parser(library_path, tmp_path):
    found = complete(["flickr", "sandbox", "--"], tmp_path, path=PYTHONPATH)
    assert {"--port", "--host", "--data", "--tls", "--print-settings"} <= set(found), found
    assert complete(["flickr", "sandbox", "--port", "0", "--print-settings", "j"], tmp_path, path=PYTHONPATH) == ["json"]
    assert complete(["flickr", "sandbox", "--print-settings", "=", ""], tmp_path, path=PYTHONPATH) == ["json", "lines"]
    # Without the sandbox installed: nothing, and nothing on the command line either.
    assert complete(["flickr", "sandbox", "--"], tmp_path) == []
    print(f"flickr sandbox --<TAB>: {len(found)} options")


def test_completion_offers_every_command_subcommand_and_option():
    """Every name the parser knows completes from its first letters, and every option's values:
    the candidates come from the parser itself, so a new command or option cannot be missed."""
    from flickr_apps.cli import build_parser
    from flickr_apps.cli.completion import _subcommands, candidates

    parser, checked = build_parser(), 0

    def visit(node, path):
        nonlocal checked
        for name, sub in _subcommands(node).items():
            assert name in candidates(parser, [*path, name[:2]])[1], f"flickr {' '.join(path)} {name[:2]}<TAB>"
            checked += 1
            visit(sub, [*path, name])
        for option, action in node._option_string_actions.items():
            assert option in candidates(parser, [*path, option[:3]])[1], f"flickr {' '.join(path)} {option[:3]}<TAB>"
            checked += 1
            if action.choices is not None:
                assert candidates(parser, [*path, option, ""]) == ("words", sorted(map(str, action.choices)))
                checked += 1

    visit(parser, [])
    print(f"{checked} names and option values complete")
    assert checked > 100


def test_fish_completion(library_path, tmp_path):
    fish = shutil.which("fish")
    assert fish, "fish is not installed (scripts/install-deps.sh installs it)"
    script = tmp_path / "flickr.fish"
    script.write_text(flickr("completion", "fish").stdout)
    wrapper = tmp_path / "flickr"
    wrapper.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m flickr \"$@\"\n")
    wrapper.chmod(0o755)
    env = dict(os.environ, PYTHONPATH=CLIENT_PATH, PATH=f"{tmp_path}:{os.environ['PATH']}")

    def fish_complete(line):
        result = subprocess.run([fish, "--no-config", "-c", f"source {shlex.quote(str(script))}; complete -C{shlex.quote(line)}"],
                                capture_output=True, text=True, env=env, timeout=60)
        assert result.returncode == 0, result.stderr
        return [candidate.split("\t")[0] for candidate in result.stdout.splitlines()]

    assert fish_complete("flickr re") == ["replace"]
    assert fish_complete("flickr auth l") == ["login", "logout"]
    assert fish_complete("flickr upload --ta") == ["--tags"]
    assert fish_complete("flickr call flickr.photos.sea") == ["flickr.photos.search"]
    assert fish_complete("flickr call flickr.photos.getInfo ph") == ["photo_id="]
    assert fish_complete("flickr auth login --perms=w") == ["--perms=write"]


def test_call_uses_the_catalogue_verb(library_path, sandbox):
    env = {"FLICKR_API_KEY": sandbox.api_key, "FLICKR_API_SECRET": sandbox.api_secret,
           "FLICKR_ENDPOINT": sandbox.url, "FLICKR_OAUTH_TOKEN": sandbox.oauth_token,
           "FLICKR_OAUTH_TOKEN_SECRET": sandbox.oauth_token_secret, "FLICKR_TOKEN_STORE": os.devnull + ".none"}
    photos = json.loads(flickr("call", "flickr.photos.search", "user_id=me", "per_page=1", env_extra=env).stdout)
    photo_id = photos["photos"]["photo"][0]["id"]
    result = flickr("-v", "call", "flickr.photos.addTags", f"photo_id={photo_id}", "tags=cli-verb", env_extra=env)
    assert result.returncode == 0, result.stderr
    assert "flickr.photos.addTags POST" in result.stderr  # -v logs each request
    refused = flickr("call", "flickr.photos.getInfo", env_extra=env)
    assert refused.returncode == 2 and '"photo_id"' in refused.stderr

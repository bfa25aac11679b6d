# SPDX-License-Identifier: MIT
"""Every command's --help lists its exit codes, and README.md, docs/ and --help say the same codes."""
import argparse
import re

from flickr_apps.cli import build_parser
from flickr_apps.cli.common import EXIT_CODES
from flickr_sandbox.__main__ import build_parser as sandbox_parser
from libtest import REPO

# A code in an exit-code list: a number that starts the list or follows "; ", ", " or ", and " and is followed by
# a word or a parenthesis ("7 the disk is full", "2 usage", "130 interrupted"), not "1 GiB" inside a sentence.
_CODE = re.compile(r"(?:Exit codes[^:]*:\*?\*?|;|,|\band|With `--from-export`,)\s+(\d{1,3})\s+(?=[A-Za-z(`-])")
EVERY_COMMAND_GIVES = {0, 1, 2}


def listed(text: str) -> set[int]:
    """The codes of the exit-code list in `text`: from "Exit codes" to the end of its paragraph."""
    start = text.index("Exit codes")
    paragraph = " ".join(text[start:].split("\n\n")[0].split())
    return {int(code) for code in _CODE.findall(paragraph)}


def commands() -> dict[str, argparse.ArgumentParser]:
    """Every command's parser by its name (auth's actions as "auth login"...); sandbox's is its own."""
    found = {}

    def walk(prefix: str, parser: argparse.ArgumentParser) -> None:
        for action in parser._actions:
            if isinstance(action, argparse._SubParsersAction):
                for name, sub in action.choices.items():
                    found[f"{prefix}{name}".strip()] = sub
                    walk(f"{prefix}{name} ", sub)

    walk("", build_parser())
    found["sandbox"] = sandbox_parser("flickr sandbox")
    return found


def test_readme_and_flickr_help_list_every_exit_code_of_the_cli():
    readme = (REPO / "README.md").read_text()
    in_readme = listed(readme[readme.index("Exit codes: 0 success"):])
    in_help = listed(build_parser().format_help())
    print(f"README {sorted(in_readme)}, --help {sorted(in_help)}, EXIT_CODES {sorted(EXIT_CODES)}")
    assert in_readme == in_help == set(EXIT_CODES) == {0, 1, 2, 3, 4, 5, 6, 7, 8, 130, 141}


def test_every_commands_help_lists_its_exit_codes():
    every = set(EXIT_CODES)
    lists = {name: listed(parser.format_help()) for name, parser in commands().items()}
    print({name: sorted(codes) for name, codes in lists.items()})
    assert len(lists) == 16  # 13 commands (sandbox its own parser), auth's 3 actions
    for name, codes in lists.items():
        assert EVERY_COMMAND_GIVES <= codes <= every, (name, sorted(codes))
    assert lists["harvest"] >= {8, 130} and lists["backup"] >= {7, 8, 130} and lists["lifeboat"] >= {7, 130}


def test_the_docs_exit_code_lists_are_the_commands():
    docs = {"backup": "docs/backup.md", "lifeboat": "docs/lifeboat.md", "harvest": "docs/harvest.md"}
    parsers = commands()
    for command, page in docs.items():
        text = (REPO / page).read_text()
        in_docs = listed(text[text.index(f"Exit codes") if command != "lifeboat" else text.index("**Exit codes**"):])
        in_help = listed(parsers[command].format_help())
        print(f"{command}: {page} {sorted(in_docs)}, --help {sorted(in_help)}")
        assert in_docs == in_help, command

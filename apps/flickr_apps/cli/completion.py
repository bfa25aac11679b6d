# SPDX-License-Identifier: MIT
"""`flickr completion bash|zsh|fish`: shell completion, and `flickr __complete WORDS...`, which
answers it.

The scripts hold no list of their own: at each TAB they hand the words typed so far to
`flickr __complete`, which reads the command's own argparse parser (commands, subcommands,
options, the values an option takes) and the method catalogue (method names, their arguments).
So a command or an option added to the parser completes at once, and none can drift.

What `__complete` prints: a first line saying what to do, then the candidates, one a line:
`words` (offer the candidates), `words nospace` (the same, typing no space after one: `key=`),
or `files` (the shell completes file names itself).
"""
from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, Iterable

from .common import add_global_options

if TYPE_CHECKING:
    from .common import Subparsers

COMPLETE = "__complete"

BASH = r'''# bash completion for flickr (libflickr): eval "$(flickr completion bash)"
# The candidates come from `flickr __complete`, which reads the command's own parser.
_flickr() {
    local cur=${COMP_WORDS[COMP_CWORD]} directive
    local -a lines
    mapfile -t lines < <(flickr __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)
    directive=${lines[0]-}
    case $directive in
        files) [[ $cur == = ]] && cur=  # --option=<TAB>: the value is empty
            COMPREPLY=($(compgen -f -- "$cur")) ;;
        words*)
            COMPREPLY=("${lines[@]:1}")
            if [[ $directive == *nospace* ]]; then compopt -o nospace 2>/dev/null; fi ;;
        *) COMPREPLY=() ;;
    esac
}
complete -F _flickr flickr
'''

ZSH = r'''#compdef flickr
# zsh completion for flickr (libflickr): flickr completion zsh > ~/.zfunc/_flickr (~/.zfunc in fpath)
# The candidates come from `flickr __complete`, which reads the command's own parser.
_flickr() {
    local -a lines
    lines=("${(@f)$(flickr __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
    case $lines[1] in
        files) _files ;;
        words*nospace*) compadd -S '' -- "${(@)lines[2,-1]}" ;;
        words*) compadd -- "${(@)lines[2,-1]}" ;;
    esac
}
_flickr "$@"
'''

FISH = r'''# fish completion for flickr (libflickr): flickr completion fish > ~/.config/fish/completions/flickr.fish
# The candidates come from `flickr __complete`, which reads the command's own parser.
function __flickr_complete
    set -l lines (flickr __complete (commandline -opc)[2..-1] (commandline -ct) 2>/dev/null)
    switch "$lines[1]"
        case files
            __fish_complete_path (commandline -ct)
        case 'words*'
            printf '%s\n' $lines[2..-1]
    end
end
complete -c flickr -f -a '(__flickr_complete)'
'''

SCRIPTS = {"bash": BASH, "zsh": ZSH, "fish": FISH}


def add_parser(subparsers: Subparsers) -> None:
    completion = subparsers.add_parser(
        "completion", help="print a shell completion script",
        description="Completion of commands, options, method names and their arguments. Install with "
                    "`eval \"$(flickr completion bash)\"` in ~/.bashrc, `flickr completion zsh > "
                    "~/.zfunc/_flickr` (with ~/.zfunc in fpath), or `flickr completion fish > "
                    "~/.config/fish/completions/flickr.fish`.")
    completion.add_argument("shell", choices=list(SCRIPTS))
    add_global_options(completion)
    completion.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    print(SCRIPTS[args.shell], end="")
    return 0


# -- answering a TAB ----------------------------------------------------------------------------------


def _subcommands(parser: argparse.ArgumentParser) -> dict[str, argparse.ArgumentParser]:
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            return dict(action.choices)
    return {}


def _positionals(parser: argparse.ArgumentParser) -> list[argparse.Action]:
    return [action for action in parser._actions
            if not action.option_strings and not isinstance(action, argparse._SubParsersAction)]


def _positional_at(parser: argparse.ArgumentParser, index: int) -> argparse.Action | None:
    """The positional argument that the index-th positional word fills (None past the last)."""
    for action in _positionals(parser):
        if action.nargs in ("*", "+", argparse.REMAINDER):
            return action
        if index == 0:
            return action
        index -= 1
    return None


def _method_arguments(method: str) -> list[str]:
    from flickr.api import method_info  # loads the library: only when a method's arguments are asked for
    info = method_info(method) or method_info("flickr." + method)
    return [] if info is None else [*info.required, *info.optional]


def _method_names() -> list[str]:
    from flickr.api import methods
    return list(methods())


def candidates(parser: argparse.ArgumentParser, words: list[str]) -> tuple[str, list[str]]:
    """What to offer for the last of `words` (the words after `flickr`, the last one being typed):
    (directive, candidates), as `__complete` prints them."""
    *before, current = _joined(words) or [""]
    node = parser  # the (sub)command reached
    given: list[str] = []  # the positional words it was given
    value_of: argparse.Action | None = None
    for word in before:
        if value_of is not None:
            value_of = None
        elif word.startswith("-") and word != "-":
            action = node._option_string_actions.get(word)
            if action is not None and action.nargs != 0:
                value_of = action  # the next word is its value
        elif not given and word in _subcommands(node):
            node = _subcommands(node)[word]
            completed_by = node.get_default("completed_by")
            if completed_by is not None:  # a command with a parser of its own (flickr sandbox)
                node = completed_by()
                if node is None:
                    return "words", []
        else:
            given.append(word)
    prefix = ""
    if value_of is None and current.startswith("-") and "=" in current:  # --option=value
        option, _, current = current.partition("=")
        value_of = node._option_string_actions.get(option)
        if value_of is None or value_of.nargs == 0:
            return "words", []
        # bash replaces only the text after the "=" (COMP_WORDBREAKS); zsh and fish the whole word.
        if not (words[-1:] == ["="] or words[-2:-1] == ["="]):
            prefix = option + "="
    elif "=" in current:  # a method argument's value (key=value): nothing to offer
        return "words", []
    if value_of is not None:
        if value_of.choices is not None:
            return "words", [prefix + choice for choice in _starting(current, map(str, value_of.choices))]
        return ("files", []) if not prefix else ("words", [])
    if current.startswith("-"):
        return "words", _starting(current, node._option_string_actions)
    if not given and _subcommands(node):
        return "words", _starting(current, _subcommands(node))
    action = _positional_at(node, len(given))
    if action is None:
        return "words", []
    if action.choices is not None:
        return "words", _starting(current, (str(choice) for choice in action.choices))
    if action.dest == "method":
        return "words", _starting(current, _method_names())
    if action.metavar == "key=value":
        method = next((word for word, filled in zip(given, _positionals(node)) if filled.dest == "method"), None)
        named = {word.split("=", 1)[0] for word in given if "=" in word}
        arguments = [] if method is None else _method_arguments(method)
        return "words nospace", _starting(current, (f"{name}=" for name in arguments if name not in named))
    if action.metavar == "FILE":
        return "files", []
    return "words", []


def _joined(words: list[str]) -> list[str]:
    """bash splits `key=value` at the "=" (COMP_WORDBREAKS): the pieces joined again."""
    joined: list[str] = []
    glue = False
    for word in words:
        if word == "=" and joined:
            joined[-1] += word
            glue = True
        elif glue:
            joined[-1] += word
            glue = False
        else:
            joined.append(word)
    return joined


def _starting(prefix: str, names: Iterable[str]) -> list[str]:
    return sorted(name for name in names if name.startswith(prefix))


def complete(parser: argparse.ArgumentParser, words: list[str]) -> int:
    """`flickr __complete WORDS...`: prints the directive and the candidates. A failure (no library
    for the catalogue, say) offers nothing rather than printing into the user's command line."""
    try:
        directive, found = candidates(parser, words)
    except Exception:
        directive, found = "words", []
    print("\n".join([directive, *found]))
    return 0

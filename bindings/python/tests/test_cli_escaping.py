# SPDX-License-Identifier: MIT
"""Text from a file name or a server reaches the terminal escaped: progress bars, messages, JSON
and `flickr call --xml`, whether the output is a terminal (a pty here) or not."""
import json
import os
import pty
import re
import subprocess
import sys
import threading
import uuid
import xml.etree.ElementTree as ElementTree

import pytest

from flickr_apps.cli import common
from libtest import answering, cli_env, run_cli

JPEG = b"\xff\xd8\xff\xe0" + bytes(range(256)) * 8
# What must never reach a terminal raw: C0, DEL, C1, bidirectional formatting, line and paragraph
# separators, lone surrogates (undecodable bytes, decoded with surrogateescape below).
UNSAFE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")
HOSTILE_NAMES = ["\x1b]0;pwned\x07.jpg", "\x1b[2J\x1b[31mred.jpg", "\u009b2Jcsi.jpg", "\u0085nel.jpg",
                 "x\u202egnp.exe.jpg", "\u2066iso\u2069.jpg", "line\u2028break.jpg", "tab\there\x7f.jpg"]
HOSTILE_TITLE = "a\u0085b\u009b2Jc\u202ed\u2028e\x7ff"


def raw_controls(output: bytes, allowed: str = "\n") -> list[str]:
    """The unsafe characters of `output` (as written to a terminal), but those in `allowed`."""
    return [c for c in UNSAFE.findall(output.decode("utf-8", "surrogateescape")) if c not in allowed]


def test_every_unsafe_character_is_escaped():
    every = "".join(chr(c) for c in range(0x110000) if UNSAFE.fullmatch(chr(c)))
    name = os.fsdecode(b"\xff\x1b[31m\xc3.jpg")  # not UTF-8: surrogates stand for the bytes
    print(f"{len(every)} unsafe characters")
    assert len(every) == 32 + 33 + 1 + 2 + 2 + 5 + 4 + 2048
    for text in (every, name):
        assert raw_controls(common.terminal_safe(text).encode("utf-8", "surrogateescape"), allowed="") == []
        assert raw_controls(common.dumps_json(text).encode("utf-8", "surrogateescape"), allowed="") == []
    for text in (name, HOSTILE_TITLE, every[:65]):  # C0, DEL, C1 (adjacent surrogates would pair up)
        assert json.loads(common.dumps_json(text)) == text  # still JSON of the same text
    assert common.terminal_safe(name) == "\\xff\\x1b[31m\\xc3.jpg"  # a name's bytes as bytes
    assert common.terminal_safe("\u202e\ud800") == "\\u202e\\ud800"
    assert raw_controls(common.xml_safe(every).encode("utf-8", "surrogateescape"), allowed="\t\n") == []
    # XML's own characters come back from their references: the document means the same.
    legal = "".join(c for c in every if c in "\t\n\r" or "\x7f" <= c < "\ud800")
    assert ElementTree.fromstring(f"<t>{common.xml_safe(legal)}</t>").text == legal


def run_on_a_terminal(sandbox, *argv) -> tuple[int, bytes, bytes]:
    """`flickr ARGV` with stderr on a pty (the progress bar redraws in place there); its exit
    status, stdout and what the terminal received."""
    controller, terminal = pty.openpty()
    received = bytearray()

    def read() -> None:
        while True:
            try:
                chunk = os.read(controller, 65536)
            except OSError:  # EIO: the last writer closed the terminal
                return
            if not chunk:
                return
            received.extend(chunk)

    reader = threading.Thread(target=read)
    reader.start()
    try:
        process = subprocess.run([sys.executable, "-m", "flickr", *argv], stdout=subprocess.PIPE, stderr=terminal,
                                 env=cli_env(sandbox), timeout=120)
    finally:
        os.close(terminal)
        reader.join(30)
        os.close(controller)
    return process.returncode, process.stdout, bytes(received)


@pytest.fixture
def hostile_folder(tmp_path):
    folder = tmp_path / "hostile"
    folder.mkdir()
    for name in HOSTILE_NAMES:
        (folder / name).write_bytes(JPEG)
    return folder


def test_hostile_file_names_in_upload_progress_and_messages(library_path, sandbox, hostile_folder):
    status, stdout, terminal = run_on_a_terminal(sandbox, "upload", str(hostile_folder), "--json")
    assert status == 0, terminal
    sent = [json.loads(line)["file"] for line in stdout.splitlines()]
    assert sorted(os.path.basename(path) for path in sent) == sorted(HOSTILE_NAMES)
    # The bar's own redraw (progress.py: "\r" then erase the line, "\x1b[K"), and line ends.
    on_terminal = raw_controls(terminal.replace(b"\r\x1b[K", b"\r"), allowed="\r\n")
    piped = run_cli(sandbox, "upload", str(hostile_folder))
    in_pipe = raw_controls((piped.stdout + piped.stderr).encode("utf-8", "surrogateescape"))
    print(f"{len(HOSTILE_NAMES)} hostile names uploaded: {len(on_terminal)} raw controls on the terminal, "
          f"{len(in_pipe)} in the pipe")
    assert on_terminal == [] and in_pipe == [] and piped.returncode == 0
    assert b"\\x1b]0;pwned\\x07.jpg [" in terminal and b"x\\u202egnp.exe.jpg [" in terminal


@pytest.fixture
def hostile_photo(library_path, sandbox, tmp_path):
    """A photo whose title holds C1 controls, bidi and separators (the sandbox keeps them, not C0)."""
    path = tmp_path / "plain.jpg"
    path.write_bytes(JPEG)
    tag = "esc" + uuid.uuid4().hex[:12]
    uploaded = run_cli(sandbox, "upload", str(path), "--tags", tag, "--json")
    assert uploaded.returncode == 0, uploaded.stderr
    photo_id = json.loads(uploaded.stdout)["photo_id"]
    titled = run_cli(sandbox, "call", "flickr.photos.setMeta", f"photo_id={photo_id}", f"title={HOSTILE_TITLE}")
    assert titled.returncode == 0, titled.stderr
    return photo_id, tag


def test_server_text_in_xml_json_and_walk_output(sandbox, hostile_photo):
    photo_id, tag = hostile_photo
    runs = {
        "call --xml": run_cli(sandbox, "call", "--xml", "flickr.photos.getInfo", f"photo_id={photo_id}"),
        "call": run_cli(sandbox, "call", "flickr.photos.getInfo", f"photo_id={photo_id}"),
        "walk": run_cli(sandbox, "walk", "flickr.photos.search", f"tags={tag}"),
    }
    found = {name: raw_controls((r.stdout + r.stderr).encode("utf-8", "surrogateescape"), allowed="\t\n")
             for name, r in runs.items()}
    print("raw controls:", {name: len(chars) for name, chars in found.items()})
    assert all(r.returncode == 0 for r in runs.values()), [r.stderr for r in runs.values()]
    assert found == {name: [] for name in runs}
    # The XML is still the server's: the title comes back whole from its character references.
    assert ElementTree.fromstring(runs["call --xml"].stdout).find("photo/title").text == HOSTILE_TITLE
    assert json.loads(runs["call"].stdout)["photo"]["title"]["_text"] == HOSTILE_TITLE
    assert json.loads(runs["walk"].stdout)["title"] == HOSTILE_TITLE


# What the sandbox does not store: a carriage return (it would move the cursor back over the line),
# raw in an answer. (A C0 control but tab, newline and CR makes the XML malformed: the library refuses it.)
HOSTILE_XML = ('<?xml version="1.0" encoding="utf-8"?><rsp stat="ok"><photo id="1" secret="\u202e\u0085">'
               '<title>innocent\rEVIL\u009b2J\u2028</title></photo></rsp>').encode()


def test_raw_controls_from_a_hostile_server_in_xml_output(library_path, sandbox):
    with answering(HOSTILE_XML) as url:
        result = run_cli(sandbox, "call", "--xml", "flickr.photos.getInfo", "photo_id=1",
                         env_extra={"FLICKR_ENDPOINT": url})
    found = raw_controls((result.stdout + result.stderr).encode("utf-8", "surrogateescape"))
    print(f"{len(found)} raw controls in `call --xml` of {len(UNSAFE.findall(HOSTILE_XML.decode()))} sent")
    assert result.returncode == 0, result.stderr
    assert found == [] and 'secret="&#x202e;&#x85;"><title>innocent&#xd;EVIL&#x9b;2J&#x2028;</title>' in result.stdout
    photo = ElementTree.fromstring(result.stdout).find("photo")
    assert (photo.get("secret"), photo.find("title").text) == ("\u202e\u0085", "innocent\rEVIL\u009b2J\u2028")

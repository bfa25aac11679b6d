# SPDX-License-Identifier: MIT
"""The two handovers of a tree to Python, compared: marshal's format (what `Flickr.call` reads
where the interpreter agrees) and JSON (the fallback) must give identical objects (same types, same
keys in the same order, same text) on every fixture, on the 20,000 seeded strings of the UTF-8
repair test and on hostile shapes. Imported by test_handover.py, and run as a program on each
installed Python the package supports: prints its counts, exits 1 on the first difference.

    python handovercheck.py   (with flickr importable and FLICKR_LIBRARY set)
"""
from __future__ import annotations

import pathlib
import sys
from typing import Any, Iterator

from flickr import _ffi, _response, errors

REPO = pathlib.Path(__file__).resolve().parents[3]
FIXTURES = REPO / "Tests" / "Fixtures" / "xml"

#: FNV-1a (64-bit) of the 20,000 seeded strings, each followed by 0x100, as the Swift test
#: (MarshalWriterTests.repairsUTF8AsTheJSONWriterDoes) draws them: the two draw the same strings.
SEEDED_FNV = 13340629270255106031
_MASK = (1 << 64) - 1


class SplitMix64:
    """Swift's SplitMix64 of the UTF-8 repair test, with the draws Swift's stdlib makes of it
    (`Int.random(in:)` by Lemire's method, `Bool.random` from bit 17)."""

    def __init__(self, seed: int) -> None:
        self.state = seed

    def next(self) -> int:
        self.state = (self.state + 0x9E3779B97F4A7C15) & _MASK
        z = self.state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, bound: int) -> int:
        m = self.next() * bound
        if m & _MASK < bound:
            floor = (-bound) % bound
            while m & _MASK < floor:
                m = self.next() * bound
        return m >> 64

    def coin(self) -> bool:
        return (self.next() >> 17) & 1 == 0


_INTERESTING = bytes([0x00, 0x0A, 0x22, 0x41, 0x5C, 0x7F, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xA8, 0xA9, 0xBF,
                      0xC0, 0xC2, 0xDF, 0xE0, 0xE2, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF])


def seeded_strings() -> Iterator[bytes]:
    generator = SplitMix64(0x1F1C4B12)
    for _ in range(20_000):
        count = generator.below(9)
        yield bytes(_INTERESTING[generator.below(len(_INTERESTING))] if generator.coin() else generator.next() & 0xFF
                    for _ in range(count))


def fnv(strings: list[bytes]) -> int:
    digest = 14695981039346656037
    for text in strings:
        for byte in text:
            digest = ((digest ^ byte) * 1099511628211) & _MASK
        digest = ((digest ^ 0x100) * 1099511628211) & _MASK
    return digest


def escaped(text: bytes) -> bytes:
    return text.replace(b"&", b"&amp;").replace(b"<", b"&lt;").replace(b'"', b"&quot;")


def both(xml: bytes) -> tuple[Any, Any] | None:
    """(marshal's objects, JSON's objects) of the whole tree and of each of the root's values; None
    when the library refuses the document (then neither handover runs)."""
    lib = _ffi.lib()
    with _ffi.Response() as response:
        try:
            lib.flickr_response_parse(response.out, xml, len(xml))
        except errors.FlickrError:
            return None
        root = lib.flickr_response_root(response)
        values = [lib.flickr_value_at(root, i) for i in range(lib.flickr_value_count(root))]
        by_marshal = [_response._from_marshal(lib.flickr_response_marshal, response)]
        by_marshal += [_response._from_marshal(lib.flickr_value_marshal, value) for value in values]
        by_json = [_response._from_json(lib.flickr_response_json(response))]
        by_json += [_response._from_json(lib.flickr_value_json(value)) for value in values]
        return by_marshal, by_json


def compare(name: str, xml: bytes) -> bool:
    """Whether `xml` parsed (False if refused); raises AssertionError on a difference."""
    found = both(xml)
    if found is None:
        return False
    by_marshal, by_json = found
    assert _response._same(by_marshal, by_json), f"{name}: marshal {by_marshal!r:.300} != JSON {by_json!r:.300}"
    return True


def hostile() -> Iterator[tuple[str, bytes]]:
    """Shapes a server could send: the deepest nesting the parser takes (objects, and objects in
    arrays), wide and repeated attribute sets (past the writer's 256 shared keys), texts that look
    like marshal's type codes and lengths, long and empty texts, many siblings."""
    yield "deep objects", b"<rsp>" + b"<a>" * 254 + b"x" + b"</a>" * 254 + b"</rsp>"
    yield "deep arrays", b"<rsp>" + b"<a>" * 254 + b"<a/></a>" * 254 + b"</rsp>"
    yield "deep plural", b"<rsp>" + b"<photos><photo>" * 127 + b"</photo></photos>" * 127 + b"</rsp>"
    names = [f"k{i}" for i in range(5000)]
    wide = "".join(f' {n}="{i}"' for i, n in enumerate(names)).encode()
    yield "5,000 attributes, twice", b"<rsp><a" + wide + b"/><a" + wide + b"/></rsp>"
    yield "300 keys in 300 elements", b"<rsp>" + b"".join(b"<e%d a='1'/>" % i for i in range(300)) * 2 + b"</rsp>"
    # marshal's type codes as text, and characters whose UTF-8 holds a type code with FLAG_REF
    # (0xDB is "[" | 0x80, 0xE3 "c" | 0x80): all inside length-prefixed strings.
    codes = "0{}[]()<>uUaAzZsStTrRcNF.ig \u06c0\u3000\u00f5\u00ff\u0080"
    for i, text in enumerate((codes, "u" + "\u00ff" * 4, "r" + "\u3000" * 40, "{u" + codes * 50 + "0")):
        body = escaped(text.encode("utf-8"))
        yield f"type codes {i}", b'<rsp stat="' + body + b'"><u r="' + body + b'">' + body + b"</u><" + b"r>" + body + b"</r></rsp>"
    yield "long text", b"<rsp><t>" + "\u00e9\u732b\U0001f600z".encode() * 30000 + b"</t></rsp>"
    yield "empties", b'<rsp a=""><e/><e></e><f a=""/><g><![CDATA[]]></g></rsp>'
    yield "siblings", b"<rsp><photos>" + b'<photo id="1" t="x"/>' * 50000 + b"</photos></rsp>"
    yield "renamed keys", b'<rsp user="1" _text="2"><user>x</user><_text>y</_text>t</rsp>'


def check_all() -> dict[str, int]:
    """Every comparison; the counts of each kind."""
    assert _response.marshal_agrees(), f"Python {sys.version.split()[0]} does not read the probe as JSON does"
    counts = {"fixtures": 0, "seeded": 0, "seeded parsed": 0, "hostile": 0}
    for path in sorted(FIXTURES.rglob("*.xml")):
        refused = path.with_name(path.stem + ".error.txt").exists()  # a fixture the mapping refuses
        assert compare(str(path.relative_to(FIXTURES)), path.read_bytes()) != refused, f"{path}: refused is {not refused}"
        counts["fixtures"] += 1
    strings = list(seeded_strings())
    assert fnv(strings) == SEEDED_FNV, "the seeded strings differ from the Swift test's"
    for i, text in enumerate(strings):
        body = escaped(text)
        counts["seeded parsed"] += compare(f"seeded {i} {text!r}", b'<rsp a="' + body + b'"><t>' + body + b"</t></rsp>")
        counts["seeded"] += 1
    for name, xml in hostile():
        assert compare(name, xml), f"{name}: refused"
        counts["hostile"] += 1
    return counts


if __name__ == "__main__":
    print(sys.version_info[:2], check_all())

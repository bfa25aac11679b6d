#!/usr/bin/env python3
# SPDX-License-Identifier: MIT
"""Builds the parsing workload's input: a flickr.photos.search-style answer of
N photos (default 500) with all extras, from the recorded fixture
Tests/Fixtures/xml/flickr.interestingness.getList.xml (100 real photos with
extras=description,license,date_upload,date_taken,owner_name,icon_server,
original_format,last_update,geo,tags,machine_tags,o_dims,views,media,path_alias,
url_*): its photos are repeated in order with fresh ids until N are there.

    make_photolist.py OUT [N]
"""
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURE = ROOT / "Tests/Fixtures/xml/flickr.interestingness.getList.xml"


def build(count: int) -> bytes:
    text = FIXTURE.read_text(encoding="utf-8")
    photos = re.findall(r"^\s*<photo .*?/>\s*$", text, flags=re.M)
    assert photos, "no <photo> elements in the fixture"
    out = ['<?xml version="1.0" encoding="utf-8" ?>\n<rsp stat="ok">\n',
           f'<photos page="1" pages="1" perpage="{count}" total="{count}">\n']
    for i in range(count):
        line = photos[i % len(photos)].strip()
        line = re.sub(r' id="\d+"', f' id="{53600000000 + i}"', line, count=1)
        out.append("\t" + line + "\n")
    out.append("</photos>\n</rsp>\n")
    return "".join(out).encode("utf-8")


if __name__ == "__main__":
    count = int(sys.argv[2]) if len(sys.argv) > 2 else 500
    data = build(count)
    Path(sys.argv[1]).write_bytes(data)
    print(f"{sys.argv[1]}: {count} photos, {len(data)} bytes")

# SPDX-License-Identifier: MIT
"""The XMP sidecar of an item: title, description, creator, keywords, date taken, GPS and licence, in the
namespaces digiKam, darktable, Immich, PhotoPrism and exiftool read (dc, xmp, photoshop, exif, xmpRights,
cc, lr); docs/backup.md, "Opened by other apps", says which app reads which."""
from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .fields import DATE
from .licences import rights_marked

# Characters XML 1.0 cannot hold at all (a title may carry them): left out.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _clean(value: str) -> str:
    # A raw CR would be read back as LF (XML's end-of-line handling): written as a reference.
    return escape(_NOT_XML.sub("", value), {"\r": "&#13;"})


def _gps(value: float, positive: str, negative: str) -> str:
    """XMP's GPSCoordinate: "DDD,MM.mmmmmmK", the hemisphere its letter (the degrees are never signed).
    Rounded in millionths of a minute first, so that 89.99999999 is "90,0.000000", never "89,60.000000"
    (minutes are below 60)."""
    micro = round(abs(value) * 60_000_000)
    hemisphere = positive if value >= 0 or micro == 0 else negative
    degrees, rest = divmod(micro, 60_000_000)
    return f"{degrees},{rest // 1_000_000}.{rest % 1_000_000:06d}{hemisphere}"


def xmp_document(sidecar: dict[str, Any]) -> bytes:
    title, description = sidecar.get("title") or "", sidecar.get("description") or ""
    keywords = [k for k in (t.get("raw") or t.get("tag") or "" for t in sidecar.get("tags", [])) if k.strip()]
    owner = sidecar.get("owner") or {}
    creator = owner.get("realname") or owner.get("username") or ""
    taken = str(sidecar.get("dates", {}).get("taken") or "")
    licence = sidecar.get("license") or {}
    fields = []
    if title:
        fields.append(f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{_clean(title)}</rdf:li></rdf:Alt></dc:title>')
    if description:
        fields.append(f'<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{_clean(description)}</rdf:li>'
                      "</rdf:Alt></dc:description>")
    if creator:
        fields.append(f"<dc:creator><rdf:Seq><rdf:li>{_clean(creator)}</rdf:li></rdf:Seq></dc:creator>")
    if keywords:
        items = "".join(f"<rdf:li>{_clean(k)}</rdf:li>" for k in keywords)
        fields.append(f"<dc:subject><rdf:Bag>{items}</rdf:Bag></dc:subject>")
        # Immich reads tags from here, not from dc:subject. Each tag a top level of its own; "|" is
        # every reader's level separator, so an item with a tag holding one has dc:subject only.
        if not any("|" in k for k in keywords):
            fields.append(f"<lr:hierarchicalSubject><rdf:Bag>{items}</rdf:Bag></lr:hierarchicalSubject>")
    if DATE.fullmatch(taken) and not sidecar["dates"].get("taken_unknown"):
        stamp = taken.replace(" ", "T")
        fields += [f"<photoshop:DateCreated>{stamp}</photoshop:DateCreated>",
                   f"<xmp:CreateDate>{stamp}</xmp:CreateDate>",
                   f"<exif:DateTimeOriginal>{stamp}</exif:DateTimeOriginal>"]
    location = sidecar.get("location")
    if location:
        fields += [f"<exif:GPSLatitude>{_gps(location['latitude'], 'N', 'S')}</exif:GPSLatitude>",
                   f"<exif:GPSLongitude>{_gps(location['longitude'], 'E', 'W')}</exif:GPSLongitude>",
                   "<exif:GPSVersionID>2.2.0.0</exif:GPSVersionID>"]
    if licence.get("name"):
        fields.append(f'<dc:rights><rdf:Alt><rdf:li xml:lang="x-default">{_clean(licence["name"])}</rdf:li>'
                      "</rdf:Alt></dc:rights>")
    if licence.get("url"):
        fields.append(f"<xmpRights:WebStatement>{_clean(licence['url'])}</xmpRights:WebStatement>")
        fields.append(f"<cc:license rdf:resource={quoteattr(_NOT_XML.sub('', licence['url']))}/>")
    marked = rights_marked(licence)
    if marked is not None:
        fields.append(f"<xmpRights:Marked>{marked}</xmpRights:Marked>")
    body = "\n    ".join(fields)
    return (
        '<?xpacket begin="\ufeff" id="W5M0MpCehiHzreSzNTczkc9d"?>\n'
        '<x:xmpmeta xmlns:x="adobe:ns:meta/">\n'
        ' <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">\n'
        '  <rdf:Description rdf:about=""\n'
        '    xmlns:dc="http://purl.org/dc/elements/1.1/"\n'
        '    xmlns:xmp="http://ns.adobe.com/xap/1.0/"\n'
        '    xmlns:photoshop="http://ns.adobe.com/photoshop/1.0/"\n'
        '    xmlns:exif="http://ns.adobe.com/exif/1.0/"\n'
        '    xmlns:xmpRights="http://ns.adobe.com/xap/1.0/rights/"\n'
        '    xmlns:cc="http://creativecommons.org/ns#"\n'
        '    xmlns:lr="http://ns.adobe.com/lightroom/1.0/">\n'
        f"    {body}\n"
        "  </rdf:Description>\n"
        " </rdf:RDF>\n"
        "</x:xmpmeta>\n"
        '<?xpacket end="w"?>\n'
    ).encode("utf-8")

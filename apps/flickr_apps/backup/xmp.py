# SPDX-License-Identifier: MIT
"""The XMP sidecar of an item: title, description, keywords, date taken, GPS and licence, in the
namespaces digiKam, darktable and exiftool read (dc, xmp, photoshop, exif, xmpRights, cc)."""
from __future__ import annotations

import re
from typing import Any
from xml.sax.saxutils import escape, quoteattr

from .fields import DATE

# Characters XML 1.0 cannot hold at all (a title may carry them): left out.
_NOT_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff\ud800-\udfff]")


def _clean(value: str) -> str:
    # A raw CR would be read back as LF (XML's end-of-line handling): written as a reference.
    return escape(_NOT_XML.sub("", value), {"\r": "&#13;"})


def _gps(value: float, positive: str, negative: str) -> str:
    """XMP's GPSCoordinate: "DDD,MM.mmmmmmK"."""
    hemisphere = positive if value >= 0 else negative
    value = abs(value)
    degrees = int(value)
    return f"{degrees},{(value - degrees) * 60:.6f}{hemisphere}"


def xmp_document(sidecar: dict[str, Any]) -> bytes:
    title, description = sidecar.get("title") or "", sidecar.get("description") or ""
    keywords = [t["raw"] or t["tag"] for t in sidecar.get("tags", []) if (t.get("raw") or t.get("tag"))]
    taken = str(sidecar.get("dates", {}).get("taken") or "")
    licence = sidecar.get("license") or {}
    fields = []
    if title:
        fields.append(f'<dc:title><rdf:Alt><rdf:li xml:lang="x-default">{_clean(title)}</rdf:li></rdf:Alt></dc:title>')
    if description:
        fields.append(f'<dc:description><rdf:Alt><rdf:li xml:lang="x-default">{_clean(description)}</rdf:li>'
                      "</rdf:Alt></dc:description>")
    if keywords:
        items = "".join(f"<rdf:li>{_clean(k)}</rdf:li>" for k in keywords)
        fields.append(f"<dc:subject><rdf:Bag>{items}</rdf:Bag></dc:subject>")
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
    if licence.get("id") not in (None, "", "0"):
        fields.append("<xmpRights:Marked>True</xmpRights:Marked>")
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
        '    xmlns:cc="http://creativecommons.org/ns#">\n'
        f"    {body}\n"
        "  </rdf:Description>\n"
        " </rdf:RDF>\n"
        "</x:xmpmeta>\n"
        '<?xpacket end="w"?>\n'
    ).encode("utf-8")

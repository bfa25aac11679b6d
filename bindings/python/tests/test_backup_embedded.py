# SPDX-License-Identifier: MIT
"""`flickr backup DIR --embedded-copies`: a copy of each JPEG with its XMP inside, in DIR/embedded, for
the apps that read no sidecar (Lightroom): the XMP read back from the copy by exiftool and exiv2 as
the sidecar says, the camera's Exif kept, the original's own XMP replaced in the copy only, the pixels
the original's (decoded by djpeg), the original untouched; a file that is no JPEG gets no copy (said);
a copy removed is made again; a killed run's partial copy is removed (docs/backup.md)."""
import json
import os
import shutil
import subprocess

import pytest

import flickr.backup
from backuptest import client, jpeg, media_files, sidecar, small_account, state_rows, upload
from libtest import running_sandbox


def exif_segment() -> bytes:
    """An Exif APP1 with one tag, Make = "TestCam" (TIFF, little-endian; the value at offset 26)."""
    tiff = b"II*\x00\x08\x00\x00\x00" + b"\x01\x00" + b"\x0f\x01\x02\x00\x08\x00\x00\x00\x1a\x00\x00\x00" \
        + b"\x00\x00\x00\x00" + b"TestCam\x00"
    payload = b"Exif\x00\x00" + tiff
    return b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload


def camera_xmp_segment() -> bytes:
    packet = (b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">'
              b'<rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:title><rdf:Alt>'
              b'<rdf:li xml:lang="x-default">camera title</rdf:li></rdf:Alt></dc:title></rdf:Description>'
              b'</rdf:RDF></x:xmpmeta>')
    payload = b"http://ns.adobe.com/xap/1.0/\x00" + packet
    return b"\xff\xe1" + (len(payload) + 2).to_bytes(2, "big") + payload


def real_jpeg(tmp_path) -> bytes:
    """A real 64x48 JPEG (cjpeg), with an Exif APP1 and a camera's XMP APP1 after its JFIF APP0."""
    ppm = tmp_path / "p.ppm"
    pixels = bytes((x * 4, y * 5, (x + y) % 256) [i] for y in range(48) for x in range(64) for i in range(3))
    ppm.write_bytes(b"P6\n64 48\n255\n" + pixels)
    made = subprocess.run(["cjpeg", "-quality", "90", str(ppm)], capture_output=True, check=True).stdout
    assert made[:4] == b"\xff\xd8\xff\xe0"
    app0_end = 4 + int.from_bytes(made[4:6], "big")
    return made[:app0_end] + exif_segment() + camera_xmp_segment() + made[app0_end:]


def decoded(path) -> bytes:
    return subprocess.run(["djpeg", "-ppm", str(path)], capture_output=True, check=True).stdout


def test_embedded_copies(library_path, tmp_path):
    for tool in ("exiftool", "exiv2", "cjpeg", "djpeg"):
        assert shutil.which(tool), f"{tool} is missing: scripts/install-deps.sh installs it"
    original = real_jpeg(tmp_path)
    root = tmp_path / "archive"
    with running_sandbox() as server:
        with client(server) as api:
            small_account(api, 0)
            good = upload(api, original, title="Harbour at dusk", description="two\nlines", tags='"New York" boats')
            odd = upload(api, jpeg(1), title="Not really a JPEG")  # a JPEG's first bytes, then noise
            first = flickr.backup.run(api, root, embedded=True)
            print(first.summary(), first.notes, sep="\n")
            assert first.ok and first.fetched == 2
            files = media_files(root)
            copy = root / "embedded" / files[good].relative_to(root)
            assert copy.is_file() and files[good].read_bytes() == original  # the original as Flickr gave it
            assert not (root / "embedded" / files[odd].relative_to(root)).exists()
            assert any(note.startswith(f"{odd}: no embedded copy: ") for note in first.notes), first.notes
            side = sidecar(files[good])
            found = json.loads(subprocess.run(["exiftool", "-j", "-n", "-XMP:all", "-EXIF:Make", str(copy)],
                                              capture_output=True, text=True, check=True).stdout)[0]
            print(found)
            assert found["Title"] == side["title"] == "Harbour at dusk" and found["Description"] == "two\nlines"
            assert found["Subject"] == [t["tag"] for t in side["tags"]] == found["HierarchicalSubject"]
            assert found["DateTimeOriginal"] == side["dates"]["taken"].replace("-", ":")
            assert found["Creator"] == side["owner"]["realname"] and found["Make"] == "TestCam"
            shown = subprocess.run(["exiv2", "-PXkv", str(copy)], capture_output=True, text=True)
            assert "Harbour at dusk" in shown.stdout and "camera title" not in shown.stdout, shown
            assert decoded(copy) == decoded(files[good])  # the same pixels: nothing re-encoded
            recorded = dict(state_rows(root, "SELECT path, sha256 FROM files WHERE kind='embedded'"))
            assert list(recorded) == [str(copy.relative_to(root))]
            # A run with nothing new leaves the copy; a copy removed is made again; a killed run's part goes.
            stamp = copy.stat().st_mtime_ns
            assert flickr.backup.run(api, root, embedded=True).sidecars == 0 and copy.stat().st_mtime_ns == stamp
            copy.unlink()
            leftover = copy.with_name(f".{copy.name}.0123456789abcdef.part")
            leftover.write_bytes(b"half a copy")
            again = flickr.backup.run(api, root, embedded=True)
            print(again.summary(), again.notes)
    assert copy.is_file() and not leftover.exists() and again.fetched == 0
    assert flickr.backup.verify(root)["ok"]


def test_embedded_copies_added_to_an_archive_made_without(library_path, tmp_path):
    """--embedded-copies given later: the JPEGs already done get their copy, with no call and no fetch;
    the file that is no JPEG inside is refused once, not tried again by each run."""
    root = tmp_path / "archive"
    with running_sandbox() as server:
        with client(server) as api:
            small_account(api, 0)
            good = upload(api, real_jpeg(tmp_path), title="Later")
            upload(api, jpeg(2), title="Noise")
            flickr.backup.run(api, root)
            assert not (root / "embedded").exists()
            later = flickr.backup.run(api, root, embedded=True)
            again = flickr.backup.run(api, root, embedded=True)
    print(later.summary(), later.notes, again.summary(), again.notes, sep="\n")
    assert later.fetched == 0 and later.sidecars == 2 and again.sidecars == 0
    assert "--embedded-copies: 2 items done before get their copy" in later.notes
    copies = [p.name for p in (root / "embedded").rglob("*.jpg")]
    assert copies == [media_files(root)[good].name]


@pytest.mark.parametrize("data,packet,why", [
    (b"\xff\xd8\xff\xe1\xff\xff" + b"x" * 100, b"<x/>", "segments end before the image data"),  # a length past the end
    (b"\xff\xd8\xff\xe0\x00\x01", b"<x/>", "a length below its own"),
    (b"GIF89a", b"<x/>", "not a JPEG"),
    (b"\xff\xd8\xff\xdb\x00\x04ab", b"x" * 70_000, "more than one JPEG segment holds"),
])
def test_a_file_that_cannot_be_copied_leaves_nothing(tmp_path, data, packet, why):
    from flickr_apps.backup.embed import NotCopied, copy_with_xmp
    from flickr_apps.backup.safedir import SafeDir

    (tmp_path / "in").mkdir()
    (tmp_path / "in" / "x.jpg").write_bytes(data)
    with SafeDir.open_root(str(tmp_path / "in")) as source, SafeDir.open_root(str(tmp_path / "out")) as target:
        with pytest.raises(NotCopied, match=why):
            copy_with_xmp(source, "x.jpg", target, packet, None)
    assert os.listdir(tmp_path / "out") == [] and (tmp_path / "in" / "x.jpg").read_bytes() == data

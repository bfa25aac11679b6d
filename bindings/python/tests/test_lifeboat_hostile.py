# SPDX-License-Identifier: MIT
"""`flickr lifeboat` on hostile archives and arguments, made by hand in a few milliseconds (no
sandbox): each case ends with its documented exit code and one line, never an unexpected error,
and what is written reads back whole (lifeboat_reader.py)."""
import json
import os
import pathlib
import subprocess
import sys

import pytest

import flickr_apps.lifeboat
import lifeboat_reader
from flickr_apps.backup.safedir import SafeDir
from flickr_apps.lifeboat import _archive, _writer
from flickr.files import temporary_name
from backuptest import environ_without_flickr

USER = "1@N00"


def archive(folder: pathlib.Path, item: dict = {}, sidecar: dict = {}, index: dict = {}) -> pathlib.Path:
    """Two photos of USER; `item`, `sidecar` update the first's index entry and sidecar, `index` the index."""
    (folder / "photos").mkdir(parents=True)
    items = []
    for n, photo_id in enumerate(("101", "102")):
        (folder / "photos" / f"{photo_id}.jpg").write_bytes(b"\xff\xd8\xff\xe0 photo " + photo_id.encode())
        found = {"id": photo_id, "owner": {"nsid": USER}, "dates": {"uploaded": 1000}, "title": "t",
                 "tags": [], "comments": [], **(sidecar if n == 0 else {})}
        (folder / "photos" / f"{photo_id}.json").write_text(json.dumps(found), "utf-8")
        items.append({"id": photo_id, "path": f"photos/{photo_id}.jpg", "sidecar": f"photos/{photo_id}.json",
                      "title": "t", **(item if n == 0 else {})})
    (folder / "index.json").write_text(json.dumps({"format": "flickr-backup index 1", "user": USER, "items": items,
                                                   "albums": [], **index}), "utf-8")
    return folder


def lifeboat(*argv) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "flickr", "lifeboat", *map(os.fsdecode, argv)], capture_output=True,
                          text=True, env=environ_without_flickr(), timeout=60)
    print(done.returncode, done.stderr.strip()[:300])
    assert "unexpected error" not in done.stderr and "Traceback" not in done.stderr, done.stderr
    return done


def read_back(out: pathlib.Path) -> lifeboat_reader.Lifeboat:
    found = lifeboat_reader.load(str(out))
    assert found.problems == [], found.problems
    return found


def test_a_number_where_a_list_belongs_fails_nothing(tmp_path):
    """`albums`, `tags`, `comments`, `groups`, the index's `items` and `albums`: a number there
    was iterated (TypeError, the whole run stopped) where it is no list at all."""
    cases = {"item albums": ({"albums": 5}, {}, {}), "tags": ({}, {"tags": 5}, {}),
             "comments": ({}, {"comments": 5}, {}), "groups": ({}, {"contexts": {"groups": 5}}, {}),
             "index albums": ({}, {}, {"albums": 5})}
    for name, (item, sidecar, index) in cases.items():
        folder = archive(tmp_path / name, item, sidecar, index)
        done = lifeboat(folder, tmp_path / f"{name}.out")
        assert done.returncode == 0, name
        assert len(read_back(tmp_path / f"{name}.out").photos) == 2
    tagged = archive(tmp_path / "tag", sidecar={"tags": 5})  # --tag reads every sidecar's tags
    done = lifeboat(tagged, tmp_path / "tag.out", "--tag", "harbour")
    assert done.returncode == 2 and "matches no item" in done.stderr
    items = archive(tmp_path / "items", index={"items": 5})
    done = lifeboat(items, tmp_path / "items.out")
    assert done.returncode == 2 and "matches no item" in done.stderr


def test_nan_infinity_and_deep_nesting_are_not_json(tmp_path):
    """Python's json takes NaN, Infinity and 1e999 (a Lifeboat's metadata, written allow_nan=False,
    then failed with ValueError), and 100,000 `[` raise RecursionError: each is a sidecar that is
    not JSON (its item failed, said) or an index that is no archive."""
    good = {"id": "101", "owner": {"nsid": USER}, "dates": {"uploaded": 1000},
            "location": {"latitude": 1, "longitude": 2, "accuracy": 12345}}
    for name, text in (("nan", json.dumps(good).replace("12345", "NaN")),
                       ("inf", json.dumps(good).replace("12345", "1e999")), ("deep", "[" * 100_000 + "]" * 100_000)):
        folder = archive(tmp_path / name)
        (folder / "photos" / "101.json").write_text(text, "utf-8")
        done = lifeboat(folder, tmp_path / f"{name}.out")
        assert done.returncode == 1 and "101: photos/101.json is not JSON" in done.stderr, name
        assert list(read_back(tmp_path / f"{name}.out").photos) == ["102"]
    deep = archive(tmp_path / "deep index")
    (deep / "index.json").write_text('{"format": ' + "[" * 100_000 + "]" * 100_000 + "}", "utf-8")
    done = lifeboat(deep, tmp_path / "deep index.out")
    assert done.returncode == 1 and "holds no flickr backup archive" in done.stderr
    out = tmp_path / "deep marker"  # the marker is OUT's: a planted one is read the same way
    out.mkdir()
    (out / ".flickr-lifeboat").write_text("[" * 3000, "utf-8")
    done = lifeboat(archive(tmp_path / "marker"), out)
    assert done.returncode == 1 and "is not this command's marker" in done.stderr


def test_a_lone_surrogate_is_written_escaped(tmp_path):
    """A title with "\\ud800" (JSON allows the escape), a folder name's or --name's undecodable
    byte: README.html was encoded strictly (UnicodeEncodeError, no Lifeboat)."""
    folder = archive(tmp_path / "archive", item={"title": "left \ud800 out"}, sidecar={"owner": {"nsid": "2@N00"}})
    bad_dir = pathlib.Path(os.fsdecode(os.fsencode(tmp_path) + b"/arch\xffive"))
    folder.rename(bad_dir)
    out = tmp_path / "OUT"
    done = lifeboat(bad_dir, out, "--name", os.fsdecode(b"name \xff"))
    assert done.returncode == 0 and "left out 101" in done.stdout
    readme = (out / "README.html").read_bytes().decode("utf-8")
    assert "name \\udcff" in readme and "left \\ud800 out" in readme
    assert len(read_back(out).photos) == 1


def test_ids_and_readme_that_are_no_regular_file(tmp_path):
    """A FIFO with no writer as --ids or --readme waited forever (open blocks); a device was read."""
    folder = archive(tmp_path / "archive")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    for option, name, kind in (("--ids", fifo, "a FIFO"), ("--readme", fifo, "a FIFO"),
                               ("--ids", "/dev/zero", "a device")):
        done = lifeboat(folder, tmp_path / "OUT", option, name)
        assert done.returncode == 2 and f"{option} {name}: {kind}, not a regular file" in done.stderr
        assert len(done.stderr.splitlines()) == 1 and not (tmp_path / "OUT").exists()
    (tmp_path / "ids.txt").write_text("102\n")
    (tmp_path / "link.txt").symlink_to("ids.txt")  # the user named it: followed, as before
    done = lifeboat(folder, tmp_path / "OUT", "--ids", tmp_path / "link.txt")
    assert done.returncode == 0 and list(read_back(tmp_path / "OUT").photos) == ["102"]


# `flickr lifeboat ARGV...` in a child that prints its own peak memory (VmHWM, kB) last. Not
# ru_maxrss: Linux carries the forking process's peak across exec into it, so a child of a large
# pytest process reported that process's 368 MB (seen in a full run), whatever it used itself.
MEASURED = """import sys
from flickr_apps.cli import main
try:
    code = main(["lifeboat", *sys.argv[1:]])
finally:
    with open("/proc/self/status") as status:
        peak = next(line.split()[1] for line in status if line.startswith("VmHWM:"))
    print("maxrss", peak, file=sys.stderr)
sys.exit(code)
"""


def test_a_1_gb_index_or_sidecar_is_refused_unread(tmp_path):
    """Sparse 1 GB files: index.json and a sidecar were read to the 256 MB limit (a 290 MB peak)
    before being refused; their size is now looked at first."""
    for name, file, words in (("index", "index.json", "holds no flickr backup archive"),
                              ("sidecar", "photos/101.json", "101: photos/101.json is over")):
        folder = archive(tmp_path / name)
        os.truncate(folder / file, 1 << 30)
        done = subprocess.run([sys.executable, "-c", MEASURED, str(folder), str(tmp_path / f"{name}.out")],
                              capture_output=True, text=True, env=environ_without_flickr(), timeout=60)
        peak = int(done.stderr.split("maxrss")[-1])
        print(name, done.returncode, peak, "kB", done.stderr.splitlines()[0])
        assert done.returncode == 1 and words in done.stderr and peak < 150_000


def test_a_photo_the_archive_lost_keeps_its_earlier_copy(tmp_path):
    """A rerun after the archive lost an item's file (or it changed, or a link took its place):
    the item fails, and its copy in OUT, written whole by the earlier run, was deleted as a stray:
    the Lifeboat lost a photo it held. It is kept now, and still named by the indexes."""
    folder = archive(tmp_path / "archive")
    out = tmp_path / "OUT"
    assert lifeboat(folder, out).returncode == 0
    before = {p.name: p.read_bytes() for p in (out / "media" / "originals").iterdir()}
    (folder / "photos" / "101.jpg").unlink()
    (folder / "photos" / "102.json").write_text("not json", "utf-8")
    done = lifeboat(folder, out)
    assert done.returncode == 1 and done.stderr.count("the copy an earlier run wrote is kept") == 2
    assert {p.name: p.read_bytes() for p in (out / "media" / "originals").iterdir()} == before
    assert sorted(read_back(out).photos) == ["101", "102"]
    index = json.loads((folder / "index.json").read_text("utf-8"))
    index["items"] = index["items"][1:]  # gone from the archive's index: no longer selected, removed
    (folder / "index.json").write_text(json.dumps(index), "utf-8")
    (folder / "photos" / "102.json").write_text(json.dumps({"id": "102", "owner": {"nsid": USER},
                                                            "dates": {"uploaded": 1000}}), "utf-8")
    assert lifeboat(folder, out).returncode == 0
    assert sorted(read_back(out).photos) == ["102"] and [p.name for p in (out / "media" / "originals").iterdir()] == ["102_l.jpg"]


def test_two_runs_starting_on_one_new_out_do_not_both_write_it(tmp_path, monkeypatch):
    """Run A finds OUT empty; run B, started at that moment, finds it empty too, writes its marker
    and locks it. A's marker was renamed over B's, and A locked its own: both wrote OUT. Now A finds
    B's marker in place and B's lock on it."""
    folder, out = archive(tmp_path / "archive"), str(tmp_path / "OUT")
    held = []
    names = SafeDir.names

    def b_starts_now(self):
        found = names(self)
        if not held and self.path == out:
            held.append(None)  # B itself: no second turn
            other = _archive.Archive(str(folder))
            held[0] = _writer.LifeboatWriter(other, out, flickr_apps.lifeboat.select(other), "", "B", USER).open_out()
            other.close()
        return found

    monkeypatch.setattr(SafeDir, "names", b_starts_now)
    with pytest.raises(_writer.OutInUse, match="another flickr lifeboat is writing"):
        flickr_apps.lifeboat.make(folder, out)
    root, _marker, lock = held[0]
    print("B holds", root.names())
    assert root.names() == [".flickr-lifeboat"]  # nothing of A's, not even a temporary
    root.close()
    os.close(lock)
    monkeypatch.undo()
    assert flickr_apps.lifeboat.make(folder, out)["photos"] == 2  # B gone: A goes on


def test_a_run_killed_while_writing_the_marker_is_completed(tmp_path):
    """kill -9 before the marker is in place leaves only its temporary in OUT: the next run said
    OUT "is not empty and is not a Lifeboat" for ever; it is OUT as the killed run found it."""
    out = tmp_path / "OUT"
    out.mkdir()
    (out / temporary_name(".flickr-lifeboat")).write_bytes(b'{"format": "flick')
    done = lifeboat(archive(tmp_path / "archive"), out)
    assert done.returncode == 0 and sorted(read_back(out).photos) == ["101", "102"]
    assert [p.name for p in out.iterdir() if p.name.endswith(".part")] == []


def test_a_megabyte_id_or_title_is_clipped_in_the_report(tmp_path):
    """An index entry's id of 10^6 digits (failed: not a Flickr id) and another member's photo
    titled with 10^6 characters (left out): each was printed whole, a 1 MB line."""
    folder = archive(tmp_path / "archive", item={"title": "T" * 10**6}, sidecar={"owner": {"nsid": "2@N00"}})
    index = json.loads((folder / "index.json").read_text("utf-8"))
    index["items"].append({**index["items"][1], "id": "9" * 10**6})
    (folder / "index.json").write_text(json.dumps(index), "utf-8")
    done = lifeboat(folder, tmp_path / "OUT")
    longest = max(len(line) for line in (done.stdout + done.stderr).splitlines())
    print("longest line", longest)
    assert done.returncode == 1 and "left out 101 'TTT" in done.stdout and "not a Flickr photo id" in done.stderr
    assert longest < 400


def test_a_photo_file_planted_in_out_is_not_kept_for_a_failed_item(tmp_path):
    """The earlier copy kept for a failed item is read from OUT: a photo file there cut short or
    of other shapes (its licenceId a list: a dict key) is not taken into the indexes."""
    folder = archive(tmp_path / "archive")
    out = tmp_path / "OUT"
    assert lifeboat(folder, out).returncode == 0
    media = (folder / "photos" / "101.jpg").read_bytes()
    photo_file = out / "metadata" / "photos" / "101.js"
    whole = photo_file.read_text("utf-8")
    for planted in (whole.replace('"licenseId": ""', '"licenseId": []'), 'const photo = {"id": "101"};\n',
                    whole[:len(whole) // 2]):
        (folder / "photos" / "101.jpg").write_bytes(media)  # the run writes 101.js again: the command's
        assert lifeboat(folder, out).returncode == 0
        (folder / "photos" / "101.jpg").unlink()
        photo_file.write_text(planted, "utf-8")
        done = lifeboat(folder, out)
        assert done.returncode == 1 and "is missing from the archive" in done.stderr
        assert "kept" not in done.stderr and sorted(read_back(out).photos) == ["102"]


def test_a_users_files_in_out_are_never_deleted(tmp_path):
    """Files the user put in OUT with names of the command's shapes (555_o.jpg, 555.js) were
    deleted by a rerun as strays of an earlier selection. The record of the names the command
    wrote decides now: they stay, byte for byte, said once; its own strays still go."""
    folder, out = archive(tmp_path / "archive"), tmp_path / "OUT"
    assert lifeboat(folder, out).returncode == 0
    users = {out / "media" / "originals" / "555_o.jpg": b"\xff\xd8 the user's photo",
             out / "metadata" / "photos" / "555.js": b"// the user's notes\n"}
    for path, data in users.items():
        path.write_bytes(data)
    (tmp_path / "ids.txt").write_text("102\n")
    for argv in ((), ("--ids", tmp_path / "ids.txt")):  # the same selection, then one without 101
        done = lifeboat(folder, out, *argv)
        assert {path: path.read_bytes() for path in users if path.exists()} == users
        assert done.returncode == 0 and done.stdout.count("note:") == 1
        assert ("note: 2 files in OUT this command did not write are left as they are: "
                "media/originals/555_o.jpg, metadata/photos/555.js") in done.stdout
    print(sorted(p.name for p in (out / "media" / "originals").iterdir()))
    assert sorted(p.name for p in (out / "media" / "originals").iterdir()) == ["102_l.jpg", "555_o.jpg"]
    assert sorted(p.name for p in (out / "metadata" / "photos").iterdir()) == ["102.js", "555.js"]
    assert list(lifeboat_reader.load(str(out)).photos) == ["102"]


def test_a_users_file_where_a_photo_goes_is_not_overwritten(tmp_path):
    """A file the user put in OUT at the very name a photo's media or photo file takes was
    replaced by the photo's: that photo is refused now (a failure, exit 1), the file left as it is."""
    for name in ("media/originals/101_l.jpg", "metadata/photos/101.js"):
        folder, out = archive(tmp_path / name.replace("/", "-")), tmp_path / f"OUT-{name.replace('/', '-')}"
        (tmp_path / "ids.txt").write_text("102\n")
        assert lifeboat(folder, out, "--ids", tmp_path / "ids.txt").returncode == 0
        (out / name).write_bytes(b"the user's own")
        done = lifeboat(folder, out)
        assert (out / name).read_bytes() == b"the user's own"
        assert done.returncode == 1 and f"101: {out / name} is a file this command did not write" in done.stderr
        assert f"note: 1 file in OUT this command did not write are left as they are: {name}" in done.stdout
        assert list(lifeboat_reader.load(str(out)).photos) == ["102"]
        written = [str(p.relative_to(out)) for p in out.rglob("101*")]
        print(name, done.stderr.strip(), written)
        assert written == [name]  # nothing of 101's beside it
        (out / name).unlink()  # moved away: the same command puts the photo in
        assert lifeboat(folder, out).returncode == 0 and sorted(read_back(out).photos) == ["101", "102"]


def test_a_record_cut_by_a_kill_or_edited_by_hand(tmp_path):
    """OUT's record of the names the command wrote: a last line cut by kill -9 is dropped (its
    file was never put in place) and the record rewritten whole; a line naming anything but a
    per-photo file of the command's shapes (README.html, `..`) is never acted on."""
    folder, out = archive(tmp_path / "archive"), tmp_path / "OUT"
    assert lifeboat(folder, out).returncode == 0
    record = out / ".flickr-lifeboat-files"
    lines = record.read_text("utf-8").splitlines()
    print(lines)
    assert lines == ["flickr-lifeboat files 1", "media/originals/101_l.jpg", "media/originals/102_l.jpg",
                     "metadata/photos/101.js", "metadata/photos/102.js"]
    (out / "notes.txt").write_text("the user's")
    record.write_text("\n".join([*lines, "README.html", "metadata/photos/../../notes.txt", "media/originals/10"]),
                      "utf-8")
    (tmp_path / "ids.txt").write_text("102\n")
    done = lifeboat(folder, out, "--ids", tmp_path / "ids.txt")
    assert done.returncode == 0 and (out / "notes.txt").read_text() == "the user's" and (out / "README.html").exists()
    assert record.read_text("utf-8") == "flickr-lifeboat files 1\nmedia/originals/102_l.jpg\nmetadata/photos/102.js\n"
    record.write_bytes(b"not a record\n")
    done = lifeboat(folder, out)
    assert done.returncode == 1 and "is not this command's record" in done.stderr
    os.truncate(record, 1 << 30)  # sparse 1 GB: refused unread (it was read to 256 MB)
    done = subprocess.run([sys.executable, "-c", MEASURED, str(folder), str(out)], capture_output=True, text=True,
                          env=environ_without_flickr(), timeout=60)
    peak = int(done.stderr.split("maxrss")[-1])
    print("1 GB record", done.returncode, peak, "kB")
    assert done.returncode == 1 and "is not this command's record" in done.stderr and peak < 150_000

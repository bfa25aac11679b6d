# SPDX-License-Identifier: MIT
"""flickr.photos.*: search, getRecent, getInfo, getSizes, setMeta, addTags, delete."""

from __future__ import annotations

import os
import shlex
import sqlite3
import time

from .. import videos
from ..downloads import RESTRICTED, may_download
from ..envelope import Node
from ..errors import ApiError
from ..limits import DESCRIPTION_CHARS, TAG_CHARS, TAGS_PER_PHOTO, TITLE_CHARS, clip
from ..pictures import forget
from ..seed import is_machine_tag, normalize_tag
from ..store import Store
from .criteria import (NEWEST_FIRST, SEARCH_CAP, date_criteria, license_criteria, machine_tag_criteria, photo_list,
                       resolve_user)
from .photo_social import count_comments, has_people, is_favorite, notes_node
from .photolist import SIZES, can_see, column, fmt_coord, size_dims, size_url
from .registry import Call, method, photo_not_found

_SORTS = {
    "date-posted-desc": NEWEST_FIRST,
    "date-posted-asc": "p.dateupload ASC, p.id ASC",
    "date-taken-desc": "p.datetaken DESC, p.id DESC",
    "date-taken-asc": "p.datetaken ASC, p.id ASC",
    "interestingness-desc": "p.views DESC, p.id DESC",
    "interestingness-asc": "p.views ASC, p.id ASC",
    "relevance": NEWEST_FIRST,
}
# Any of these makes a search "parameterized"; without one Flickr refuses (error 3).
_SEARCH_CRITERIA = ("text", "tags", "user_id", "place_id", "woe_id", "min_upload_date",
                    "max_upload_date", "min_taken_date", "max_taken_date", "has_geo", "bbox",
                    "machine_tags", "group_id", "lat", "lon")


@method("flickr.photos.getRecent")
def get_recent(call: Call) -> list[Node]:
    return photo_list(call, ["p.ispublic = 1"], [], NEWEST_FIRST)


@method("flickr.photos.search")
def search(call: Call) -> list[Node]:
    if not any(call.arg(name) for name in _SEARCH_CRITERIA):
        raise ApiError(3, "Parameterless searches have been disabled. "
                          "Please use flickr.photos.getRecent instead.")
    where = ["(p.ispublic = 1 OR p.owner = ?)"]
    args: list[object] = [call.caller.nsid or ""]
    if call.arg("user_id"):
        where.append("p.owner = ?")
        args.append(resolve_user(call, call.arg("user_id")))
    tags = [normalize_tag(t) for t in call.arg("tags").split(",") if normalize_tag(t)]
    if tags:
        exists = "EXISTS (SELECT 1 FROM tags t WHERE t.photo_id = p.id AND t.tag = ?)"
        if call.arg("tag_mode", "any") == "all":
            where.extend([exists] * len(tags))
        else:
            where.append("(" + " OR ".join([exists] * len(tags)) + ")")
        args.extend(tags)
    machine_tag_criteria(call, where, args)
    for word in call.arg("text").split():
        negate = word.startswith("-") and len(word) > 1
        term = (word[1:] if negate else word).lower()
        match = ("(instr(pylower(p.title), ?) OR instr(pylower(p.description), ?) OR EXISTS "
                 "(SELECT 1 FROM tags t WHERE t.photo_id = p.id AND instr(t.tag, ?)))")
        where.append(f"NOT {match}" if negate else match)
        args.extend([term, term, normalize_tag(term) or term])
    place_id = call.arg("place_id")
    if place_id:
        inside = [row["place_id"] for row in call.store.all("SELECT place_id FROM places")
                  if place_id in [p["place_id"] for p in call.store.place_chain(row["place_id"])]]
        where.append(f"p.place_id IN ({','.join('?' * len(inside)) or 'NULL'})")
        args.extend(inside)
    if call.arg("has_geo") == "1":
        where.append("p.latitude IS NOT NULL")
    date_criteria(call, where, args)
    license_criteria(call, where, args)
    media = call.arg("media", "all")
    if media in ("photos", "videos"):
        where.append("p.media = ?")
        args.append(media[:-1])
    order = _SORTS.get(call.arg("sort", "date-posted-desc"), _SORTS["date-posted-desc"])
    return photo_list(call, where, args, order, cap=SEARCH_CAP)


def _visible_photo(call: Call) -> sqlite3.Row:
    photo = call.store.photo(call.arg("photo_id"))
    if photo is None or not can_see(photo, call.caller.nsid):
        raise photo_not_found()
    return photo


def _own_photo(call: Call) -> sqlite3.Row:
    """The caller's own photo; Flickr answers 1 for others' photos too."""
    photo = call.store.photo(call.arg("photo_id"))
    if photo is None or photo["owner"] != call.caller.nsid:
        raise photo_not_found()
    return photo


@method("flickr.photos.getInfo")
def get_info(call: Call) -> list[Node]:
    """A photo's page data, typed as Flickr's JSON (docs/sandbox.md, "JSON types")."""
    photo = _visible_photo(call)
    owner = call.store.owner(photo["owner"])
    is_owner = photo["owner"] == call.caller.nsid
    downloadable = may_download(call.store, photo, call.caller.nsid)
    attrs: dict[str, object] = {
        "id": str(photo["id"]), "secret": photo["secret"], "server": str(photo["server"]),
        "farm": int(photo["farm"]), "dateuploaded": str(photo["dateupload"]),
        "isfavorite": is_favorite(call.store, photo["id"], call.caller.nsid), "license": str(photo["license"]),
        "safety_level": str(photo["safety_level"]), "rotation": 0}
    if downloadable:  # Flickr shows the original's secret only to who may have the original
        attrs.update(originalsecret=photo["originalsecret"], originalformat=photo["originalformat"])
    attrs.update(views=str(photo["views"]), media=photo["media"])
    node = Node("photo", attrs)
    node.add("owner", {"nsid": owner["nsid"], "username": owner["username"],
                       "realname": owner["realname"], "location": owner["location"],
                       "iconserver": str(owner["iconserver"]), "iconfarm": int(owner["iconfarm"]),
                       "path_alias": owner["path_alias"] or ""})
    node.add("title", text=photo["title"])
    node.add("description", text=photo["description"])
    node.add("visibility", {"ispublic": int(photo["ispublic"]), "isfriend": int(photo["isfriend"]),
                            "isfamily": int(photo["isfamily"])})
    node.add("dates", {"posted": str(photo["dateupload"]), "taken": photo["datetaken"],
                       "takengranularity": str(column(photo, "datetakengranularity", 0)),
                       "takenunknown": str(column(photo, "datetakenunknown", 0)),
                       "lastupdate": str(photo["lastupdate"])})
    if is_owner:  # who may comment and add tags: shown to the owner only, as on Flickr
        node.add("permissions", {"permcomment": 3, "permaddmeta": 2})
    node.add("editability", {"cancomment": int(call.caller.nsid is not None),
                             "canaddmeta": int(is_owner)})
    node.add("publiceditability", {"cancomment": 1, "canaddmeta": 0})
    node.add("usage", {"candownload": int(downloadable), "canblog": 1, "canprint": 1, "canshare": 1})
    node.add("comments", text=str(count_comments(call.store, photo["id"])))
    node.children.append(notes_node(call.store, photo["id"]))
    node.add("people", {"haspeople": has_people(call.store, photo["id"])})
    tags = node.add("tags", list_of="tag")
    author_num = owner["nsid"].split("@")[0]
    for tag in call.store.tags(photo["id"]):
        author = call.store.user(tag["author"])
        tags.add("tag", {"id": f"{author_num}-{photo['id']}-{tag['seq']}", "author": tag["author"],
                         "authorname": author["username"] if author else "", "raw": tag["raw"],
                         "machine_tag": int(tag["machine_tag"])}, text=tag["tag"])
    if photo["latitude"] is not None:
        location = node.add("location", {"latitude": fmt_coord(photo["latitude"], True),
                                         "longitude": fmt_coord(photo["longitude"], True),
                                         "accuracy": int(photo["accuracy"] or 0), "context": 0})
        by_type = {p["place_type"]: p for p in call.store.place_chain(photo["place_id"])}
        for kind in ("locality", "neighbourhood", "region", "country"):
            place = by_type.get(kind)
            location.add(kind, text=place["woe_name"] if place else None)
        node.add("geoperms", {"ispublic": 1, "iscontact": 0, "isfriend": 0, "isfamily": 0})
    urls = node.add("urls", list_of="url")
    urls.add("url", {"type": "photopage"},
             text=f"{call.base_url}/photos/{owner['path_alias'] or owner['nsid']}/{photo['id']}/")
    if photo["media"] == "video":
        ready = photo["media_status"] == "ready"
        node.add("video", {"ready": int(ready), "failed": 0, "pending": int(not ready),
                           "duration": photo["duration"] or videos.DEFAULT_DURATION,
                           "width": photo["width"], "height": photo["height"]})
    return [node]


@method("flickr.photos.getSizes")
def get_sizes(call: Call) -> list[Node]:
    """The sizes the photo has: width and height numbers in JSON, as Flickr's now are."""
    photo = _visible_photo(call)
    owner = call.store.owner(photo["owner"])
    page = f"{call.base_url}/photos/{owner['path_alias'] or owner['nsid']}/{photo['id']}/sizes"
    downloadable = may_download(call.store, photo, call.caller.nsid)
    sizes = Node("sizes", {"canblog": 1, "canprint": 1, "candownload": int(downloadable)}, list_of="size")
    for size in SIZES:
        dims = size_dims(photo, size)
        if dims and (downloadable or size[1] not in RESTRICTED):
            # A video's pictures (its poster frame) are photos; its video sizes follow them.
            sizes.add("size", {"label": size[0], "width": dims[0], "height": dims[1],
                               "source": size_url(call.base_url, photo, size[1]),
                               "url": f"{page}/{size[2]}/", "media": "photo"})
    for attrs in videos.video_sizes(call.base_url, owner, photo, downloadable):
        sizes.add("size", attrs)
    return [sizes]


@method("flickr.photos.setMeta", perms=2)
def set_meta(call: Call) -> list[Node]:
    photo = _own_photo(call)
    title = clip(call.args.get("title", photo["title"]), TITLE_CHARS)
    description = clip(call.args.get("description", photo["description"]), DESCRIPTION_CHARS)
    call.store.run("UPDATE photos SET title=?, description=?, lastupdate=? WHERE id=?",
                   (title, description, int(time.time()), photo["id"]))
    return []


def split_tags(text: str) -> list[str]:
    """Flickr tag input: space-separated, double quotes group multi-word tags."""
    try:
        return [t for t in shlex.split(text, posix=True) if t.strip()]
    except ValueError:  # unbalanced quote: fall back to plain words
        return [t.strip('"') for t in text.split() if t.strip('"')]


def add_tags(store: Store, photo_id: int, author: str, raw_tags: list[str]) -> None:
    """Append tags not already on the photo (compared by clean form), each cut to TAG_CHARS, up to
    TAGS_PER_PHOTO (an upload's tags past it are dropped; addTags refuses them first)."""
    with store.transaction():
        existing = {t["tag"] for t in store.tags(photo_id)}
        row = store.row("SELECT COALESCE(MAX(seq), 0) AS n FROM tags WHERE photo_id=?", (photo_id,))
        seq = row["n"]
        for raw in (clip(t, TAG_CHARS) for t in raw_tags):
            clean = normalize_tag(raw)
            if not clean or clean in existing or len(existing) >= TAGS_PER_PHOTO:
                continue
            existing.add(clean)
            seq += 1
            store.run("INSERT INTO tags VALUES (?,?,?,?,?,?)",
                      (photo_id, seq, author, raw, clean, int(is_machine_tag(raw))))


@method("flickr.photos.addTags", perms=2)
def add_tags_method(call: Call) -> list[Node]:
    photo = _own_photo(call)
    tags = split_tags(call.arg("tags"))
    if len(call.store.tags(photo["id"])) + len(tags) > TAGS_PER_PHOTO:
        raise ApiError(2, "Maximum tags reached")
    add_tags(call.store, photo["id"], call.caller.require_user(), tags)
    call.store.run("UPDATE photos SET lastupdate=? WHERE id=?", (int(time.time()), photo["id"]))
    return []


@method("flickr.photos.delete", perms=3)
def delete(call: Call) -> list[Node]:
    photo = _own_photo(call)
    call.store.run("DELETE FROM photos WHERE id=?", (photo["id"],))
    if photo["file_path"] and os.path.exists(photo["file_path"]):
        os.remove(photo["file_path"])
    forget(call.store.data_dir, photo["id"])
    return []


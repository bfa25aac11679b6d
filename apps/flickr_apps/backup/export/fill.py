# SPDX-License-Identifier: MIT
"""`Fills`: what an account export lacks, filled with a key (`--fill`, optional), with the fewest calls
(docs/export.md, "Filling with a key").

- Licence names no built-in id has (the CC 4.0 ones): flickr.photos.licenses.getInfo, once.
- The privacy split ("friend & family" is friends only, family only or both): flickr.photos.getInfo
  per such item, up to GETINFO_MOST of them; past that, three listings of the account filtered by
  privacy (people.getPhotos, privacy_filter 2, 3 and 4: a call per 500 items of each) cost less.
- Names of the people the export gives by NSID only (comment authors; the owner when
  account_profile.json names nobody): flickr.people.getInfo, once per distinct person.
- Originals the export left out: flickr.photos.getSizes for each such item, then its original
  fetched when Flickr offers it to this key (ExportJob, engine.py).

What a call told is kept in the state (meta `export_fills`) and applied to the export's JSON each
time it is read again: a later run with nothing missing makes no call.
"""
from __future__ import annotations

import json
import re
from typing import Any, Optional, Protocol

from flickr import errors
from flickr.values import text
from ..context import RunContext
from ..fields import one_text
from ..licences import Licences
from . import mapping

META = "export_fills"  # the state's meta key of what calls told
GETINFO_MOST = 3  # getInfo calls for the privacy split past which the three filtered listings cost less
_NSID = re.compile(r"[0-9]{1,20}@N[0-9]{1,4}")
# people.getPhotos' privacy_filter: friends only, family only, friends and family -> (isfriend, isfamily).
_SPLITS = {"2": ("1", "0"), "3": ("0", "1"), "4": ("1", "1")}


class Fills:
    """What calls told, kept across runs: licences (id -> [name, url]), the privacy split of items
    (id -> [isfriend, isfamily]) and people (nsid -> {"username", "realname"}; "" when Flickr knows
    them no more)."""

    def __init__(self, stored: Optional[str]) -> None:
        found = json.loads(stored) if stored else {}
        self.licences: dict[str, list[str]] = found.get("licences", {})
        self.privacy: dict[str, list[str]] = found.get("privacy", {})
        self.people: dict[str, dict[str, str]] = found.get("people", {})

    def dumps(self) -> str:
        return json.dumps({"licences": self.licences, "privacy": self.privacy, "people": self.people})

    def into(self, licences: Licences) -> None:
        """The licence table a key once gave, so that the export's names map to ids without a call."""
        for key, (name, url) in self.licences.items():
            licences.table[key] = (name, url)
        if self.licences:
            licences.source = "flickr.photos.licenses.getInfo (an earlier run's)"

    def apply(self, item: mapping.Photo, account: dict[str, Any]) -> None:
        """The kept answers on an item just read from the export (its listing and details, in place)."""
        split = self.privacy.get(item.id)
        if split is not None and item.details["export"].get("privacy") == mapping.FRIEND_FAMILY:
            item.listed.update(isfriend=split[0], isfamily=split[1])
            problems = [p for p in item.details.get("problems", []) if p != mapping.SPLIT_UNKNOWN]
            if problems:
                item.details["problems"] = problems
            else:
                item.details.pop("problems", None)
        for comment in item.details["comments"]["comments"]["comment"]:
            if not comment["authorname"]:
                comment["authorname"] = self.name(comment["author"], account)

    def name(self, nsid: str, account: dict[str, Any]) -> str:
        if nsid and nsid == account.get("nsid"):
            return text(account.get("username"))
        return self.people.get(nsid, {}).get("username", "")


class FillContext(RunContext, Protocol):
    """What the filler uses of the export's run (engine.py's ExportBackup): the run's, and these."""
    fills: Fills

    def owner(self) -> dict[str, str]: ...


class Filler:
    """The calls of one run, for what the export (with the kept answers applied) still lacks."""

    def __init__(self, engine: FillContext) -> None:
        self.engine = engine
        self.fills = engine.fills
        self.changed: set[str] = set()
        self.counts = {"licences": 0, "privacy": 0, "people": 0}

    def run(self) -> None:
        rows = [row for row in self.engine.state.items()
                if not row["deleted"] and json.loads(row["listed"]).get(mapping.FROM_EXPORT)]
        exports = {str(row["id"]): json.loads(row["details"]).get("export") or {} for row in rows}
        listed = {str(row["id"]): json.loads(row["listed"]) for row in rows}
        self._licences(exports, listed)
        self._privacy(exports, listed)
        self._people(exports)
        self.engine.state.set_meta(META, self.fills.dumps())
        for item_id in sorted(self.changed):
            self._reread(item_id, exports[item_id])
        said = {"licences": "licence ids of {} items", "privacy": "the friends/family split of {} items",
                "people": "the names of {} people"}
        done = [said[k].format(v) for k, v in self.counts.items() if v]
        if done:
            self.engine.report.notes.append("filled with the key: " + ", ".join(done))

    def _licences(self, exports: dict[str, Any], listed: dict[str, Any]) -> None:
        unnamed = [i for i, found in exports.items()
                   if isinstance(found.get("license"), str) and "license" not in listed[i]]
        if not unnamed or self.fills.licences:
            return  # none lacking, or the table was asked already (a name it lacks stays unknown)
        licences = self.engine.licences
        licences.load(self.engine.calls)
        if licences.source != "flickr.photos.licenses.getInfo":
            return  # the call failed: asked again next run
        self.fills.licences = {key: [name, url] for key, (name, url) in licences.table.items()}
        for item_id in unnamed:
            if licences.id_of(exports[item_id]["license"]) is not None:
                self.changed.add(item_id)
                self.counts["licences"] += 1

    def _privacy(self, exports: dict[str, Any], listed: dict[str, Any]) -> None:
        unknown = sorted(i for i, found in exports.items()
                         if found.get("privacy") == mapping.FRIEND_FAMILY and i not in self.fills.privacy)
        if not unknown:
            return
        found: dict[str, list[str]] = {}
        calls = self.engine.calls
        if len(unknown) <= GETINFO_MOST:
            for item_id in unknown:
                try:
                    photo = calls.call("flickr.photos.getInfo", photo_id=item_id).get("photo") or {}
                except errors.FlickrError:
                    continue  # asked again next run
                seen = photo.get("visibility") if isinstance(photo, dict) else None
                pair = [str(seen.get("isfriend")), str(seen.get("isfamily"))] if isinstance(seen, dict) else []
                if pair and all(flag in ("0", "1") for flag in pair):
                    found[item_id] = pair  # anything else is no answer: the item keeps its problem
        else:
            wanted = set(unknown)
            nsid = str(self.engine.account.get("nsid") or "me")
            for privacy_filter, split in _SPLITS.items():
                for photo in calls.pages("flickr.people.getPhotos", "photos", "photo", user_id=nsid,
                                         privacy_filter=privacy_filter):
                    if isinstance(photo, dict) and str(photo.get("id")) in wanted:
                        found[str(photo["id"])] = list(split)
        for item_id, pair in found.items():
            self.fills.privacy[item_id] = pair
            self.changed.add(item_id)
            self.counts["privacy"] += 1

    def _people(self, exports: dict[str, Any]) -> None:
        account = self.engine.account
        wanted: dict[str, set[str]] = {}
        for item_id, found in exports.items():
            for comment in found.get("comments") or [] if isinstance(found.get("comments"), list) else []:
                author = mapping.author(comment)
                if _NSID.fullmatch(author) and author != account.get("nsid") and author not in self.fills.people:
                    wanted.setdefault(author, set()).add(item_id)
        if account.get("nsid") and not text(account.get("username")) and account["nsid"] not in self.fills.people:
            wanted.setdefault(str(account["nsid"]), set())
        for nsid in sorted(wanted):
            try:
                person = self.engine.calls.call("flickr.people.getInfo", user_id=nsid).get("person")
            except errors.APIError as error:
                if error.api_code != 1:  # 1: "User not found" (deleted): final, kept as nameless
                    continue
                person = {}
            except errors.FlickrError:
                continue  # asked again next run
            if not isinstance(person, dict):
                continue  # no answer: asked again next run
            # one_text: a name given twice (a repeated element) is no name, never a stopped run.
            self.fills.people[nsid] = {"username": one_text(person.get("username")),
                                       "realname": one_text(person.get("realname"))}
            self.changed |= wanted[nsid]
            self.counts["people"] += 1
        own = self.fills.people.get(str(account.get("nsid") or ""))
        if own and not text(account.get("username")):
            account.update(username={"_text": own["username"]}, realname={"_text": own["realname"]})

    def _reread(self, item_id: str, found: Any) -> None:
        """The item read again from its export JSON with the answers applied; its sidecars rewritten."""
        engine = self.engine
        try:
            item = mapping.photo(found, item_id, engine.licences, engine.owner())
        except ValueError:
            return
        self.fills.apply(item, engine.account)
        engine.state.relist(item_id, item.listed, 0, "sidecar")
        engine.state.details(item_id, item.details)


# SPDX-License-Identifier: MIT
"""photos.comments.getList/addComment/deleteComment and photos.notes.add/edit/delete over HTTP:
layouts, permissions (others' photos, others' comments and notes) and Flickr's error codes."""
import pytest
from sbclient import Client
from social_helpers import attrs, both, json_error, one

from flickr_sandbox import Sandbox
from flickr_sandbox import constants as C

# Flickr4Java's recording of comments.getList: a comment's attributes in order.
COMMENT_ATTRS = ("id", "author", "author_is_deleted", "authorname", "iconserver", "iconfarm", "datecreate",
                 "permalink", "path_alias", "realname")


@pytest.fixture(scope="module")
def own():
    """A sandbox of this module's own: the tests add and delete comments and notes."""
    with Sandbox() as sb:
        yield Client(sb), sb


def _marie(sandbox):
    token = (C.OAUTH_TOKEN + "-m", C.OAUTH_TOKEN_SECRET)
    sandbox.store.run("INSERT OR REPLACE INTO tokens(token, secret, kind, nsid, perms, created)"
                      " VALUES (?,?,?,?,?,0)", (token[0], token[1], "access", C.THIRD_NSID, 2))
    return token


def test_comments_get_list(own):
    client, sandbox = own
    pid = str(one(sandbox, "SELECT c.photo_id FROM comments c JOIN photos p ON p.id = c.photo_id WHERE"
                           " p.ispublic=1 GROUP BY c.photo_id HAVING COUNT(*) >= 2 ORDER BY c.photo_id"))
    count = one(sandbox, "SELECT COUNT(*) FROM comments WHERE photo_id=?", pid)
    root, obj = both(client, "flickr.photos.comments.getList", photo_id=pid)
    comments = root.find("comments")
    assert comments.get("photo_id") == pid and len(comments) == count
    assert all(attrs(c) == COMMENT_ATTRS and c.text for c in comments)
    dates = [int(c.get("datecreate")) for c in comments]
    assert dates == sorted(dates)
    assert comments[0].get("permalink").startswith(f"{sandbox.url}/photos/")
    assert len(obj["comments"]["comment"]) == count and obj["comments"]["comment"][0]["_content"]
    later = client.rest("flickr.photos.comments.getList", photo_id=pid, min_comment_date=dates[1]).ok()
    assert len(later.find("comments")) == count - 1
    assert len(client.rest("flickr.photos.comments.getList", photo_id=pid,
                           max_comment_date=dates[0]).ok().find("comments")) == 1
    bare = str(one(sandbox, "SELECT id FROM photos p WHERE ispublic=1 AND NOT EXISTS"
                            " (SELECT 1 FROM comments c WHERE c.photo_id = p.id) ORDER BY id"))
    assert len(client.rest("flickr.photos.comments.getList", photo_id=bare).ok().find("comments")) == 0
    private = str(one(sandbox, "SELECT id FROM photos WHERE ispublic=0 ORDER BY id"))
    assert client.rest("flickr.photos.comments.getList", photo_id=private).err() == (1, "Photo not found")


def test_add_and_delete_comment(own):
    client, sandbox = own
    pid = str(one(sandbox, "SELECT id FROM photos WHERE owner=? AND ispublic=1 ORDER BY id", C.OTHER_NSID))
    before = one(sandbox, "SELECT lastupdate FROM photos WHERE id=?", pid)
    added = client.rest("flickr.photos.comments.addComment", auth="oauth", photo_id=pid,
                        comment_text="Nice & <sharp>").ok().find("comment")
    assert added.get("author") == C.USER_NSID and added.text == "Nice & <sharp>"
    assert one(sandbox, "SELECT lastupdate FROM photos WHERE id=?", pid) > before
    listed = client.rest("flickr.photos.comments.getList", photo_id=pid).ok().find("comments")
    assert added.get("id") in [c.get("id") for c in listed]
    # Only its author or the photo's owner may delete it.
    marie = _marie(sandbox)
    assert client.rest("flickr.photos.comments.deleteComment", auth="oauth", token=marie,
                       comment_id=added.get("id")).err() == (2, "Comment not found.")
    client.rest("flickr.photos.comments.deleteComment", auth="oauth", comment_id=added.get("id")).ok()
    assert client.rest("flickr.photos.comments.deleteComment", auth="oauth",
                       comment_id=added.get("id")).err() == (2, "Comment not found.")
    assert client.rest("flickr.photos.comments.addComment", auth="oauth", photo_id=pid,
                       comment_text="").err() == (8, "Blank comment.")
    private = str(one(sandbox, "SELECT id FROM photos WHERE owner=? AND ispublic=0 ORDER BY id", C.USER_NSID))
    assert client.rest("flickr.photos.comments.addComment", auth="oauth", token=marie, photo_id=private,
                       comment_text="hi").err() == (1, "Photo not found.")
    assert client.rest("flickr.photos.comments.addComment", photo_id=pid, comment_text="x").err()[0] == 99
    assert client.rest("flickr.photos.comments.addComment", auth="oauth", http_method="GET", photo_id=pid,
                       comment_text="x").err()[0] == 116


def test_notes_add_edit_delete(own):
    client, sandbox = own
    pid = str(one(sandbox, "SELECT id FROM photos WHERE owner=? AND ispublic=1 ORDER BY id", C.USER_NSID))
    box = {"note_x": 10, "note_y": 20, "note_w": 30, "note_h": 40}
    note = client.rest("flickr.photos.notes.add", auth="oauth", photo_id=pid, note_text="Hello <b>", **box).ok()
    note_id = note.find("note").get("id")
    assert attrs(note.find("note")) == ("id",)
    row = sandbox.store.one("SELECT * FROM notes WHERE id=?", (int(note_id),))
    assert (row["x"], row["y"], row["w"], row["h"], row["text"]) == (10, 20, 30, 40, "Hello <b>")
    client.rest("flickr.photos.notes.edit", auth="oauth", note_id=note_id, note_text="Edited",
                **{**box, "note_x": 5}).ok()
    assert sandbox.store.one("SELECT x, text FROM notes WHERE id=?", (int(note_id),))[:] == (5, "Edited")
    marie = _marie(sandbox)
    assert client.rest("flickr.photos.notes.edit", auth="oauth", token=marie, note_id=note_id, note_text="x",
                       **box).err() == (2, "User cannot edit note")
    assert client.rest("flickr.photos.notes.delete", auth="oauth", token=marie,
                       note_id=note_id).err() == (2, "User cannot delete note")
    assert client.rest("flickr.photos.notes.add", auth="oauth", token=marie, photo_id=pid, note_text="x",
                       **box).err() == (2, "User cannot add notes")
    assert client.rest("flickr.photos.notes.add", auth="oauth", photo_id=pid, note_text="x",
                       note_x="left", note_y=1, note_w=1, note_h=1).err() == (3, "Missing required arguments")
    assert client.rest("flickr.photos.notes.add", auth="oauth", photo_id=pid, note_text="",
                       **box).err() == (3, "Missing required arguments")
    assert client.rest("flickr.photos.notes.add", auth="oauth", photo_id="1", note_text="x",
                       **box).err() == (1, "Photo not found")
    client.rest("flickr.photos.notes.delete", auth="oauth", note_id=note_id).ok()
    assert client.rest("flickr.photos.notes.delete", auth="oauth", note_id=note_id).err() == (1, "Note not found")
    assert json_error(client, "flickr.photos.notes.edit", auth="oauth", note_id="x", note_text="x",
                      **box) == (1, "Note not found")
    assert client.rest("flickr.photos.notes.add", auth="none", photo_id=pid, note_text="x", **box).err()[0] == 99


def test_note_limit(own):
    client, sandbox = own
    pid = str(one(sandbox, "SELECT id FROM photos WHERE owner=? ORDER BY id DESC", C.USER_NSID))
    sandbox.store.many("INSERT INTO notes VALUES (?,?,?,1,1,1,1,'n')",
                       [(9 * 10 ** 16 + n, int(pid), C.USER_NSID) for n in range(100)])
    assert client.rest("flickr.photos.notes.add", auth="oauth", photo_id=pid, note_text="x", note_x=1, note_y=1,
                       note_w=1, note_h=1).err() == (4, "Maximum number of notes reached")

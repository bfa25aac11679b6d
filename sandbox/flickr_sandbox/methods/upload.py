# SPDX-License-Identifier: MIT
"""flickr.photos.upload.checkTickets."""

from __future__ import annotations

import time

from ..envelope import Node
from .registry import Call, method


@method("flickr.photos.upload.checkTickets")
def check_tickets(call: Call) -> list[Node]:
    uploader = Node("uploader", list_of="ticket")
    now = time.time()
    for ticket_id in [t.strip() for t in call.arg("tickets").split(",") if t.strip()]:
        row = call.store.one("SELECT * FROM tickets WHERE id=?", (ticket_id,))
        if row is None:
            uploader.add("ticket", {"id": ticket_id, "invalid": 1})
        elif row["complete_at"] > now:
            uploader.add("ticket", {"id": ticket_id, "complete": 0})
        elif row["failed"]:
            uploader.add("ticket", {"id": ticket_id, "complete": 2})
        else:
            uploader.add("ticket", {"id": ticket_id, "complete": 1, "photoid": str(row["photo_id"])})
    return [uploader]

# SPDX-License-Identifier: MIT
"""flickr.photos.licenses.getInfo: Flickr's licences, the Creative Commons 4.0 ones included."""

from __future__ import annotations

from ..envelope import Node
from .registry import Call, method

# Ids 0-10 and their order as Flickr4Java's recording of Flickr's answer; licence 0's URL as
# Flickr gives it since 2024 (its help page). Ids 11-16, the CC 4.0 licences Flickr added on
# 2025-06-18, follow in the order of Flickr's help page: their numbers and names could not be
# checked against a recorded answer (docs/sandbox.md says so).
LICENSES: list[tuple[int, str, str]] = [
    (0, "All Rights Reserved",
     "https://www.flickrhelp.com/hc/en-us/articles/10710266545556-Using-Flickr-images-shared-by-other-members"),
    (4, "Attribution License", "https://creativecommons.org/licenses/by/2.0/"),
    (6, "Attribution-NoDerivs License", "https://creativecommons.org/licenses/by-nd/2.0/"),
    (3, "Attribution-NonCommercial-NoDerivs License", "https://creativecommons.org/licenses/by-nc-nd/2.0/"),
    (2, "Attribution-NonCommercial License", "https://creativecommons.org/licenses/by-nc/2.0/"),
    (1, "Attribution-NonCommercial-ShareAlike License", "https://creativecommons.org/licenses/by-nc-sa/2.0/"),
    (5, "Attribution-ShareAlike License", "https://creativecommons.org/licenses/by-sa/2.0/"),
    (7, "No known copyright restrictions", "https://www.flickr.com/commons/usage/"),
    (8, "United States Government Work", "http://www.usa.gov/copyright.shtml"),
    (9, "Public Domain Dedication (CC0)", "https://creativecommons.org/publicdomain/zero/1.0/"),
    (10, "Public Domain Mark", "https://creativecommons.org/publicdomain/mark/1.0/"),
    (11, "CC BY 4.0", "https://creativecommons.org/licenses/by/4.0/"),
    (12, "CC BY-SA 4.0", "https://creativecommons.org/licenses/by-sa/4.0/"),
    (13, "CC BY-ND 4.0", "https://creativecommons.org/licenses/by-nd/4.0/"),
    (14, "CC BY-NC 4.0", "https://creativecommons.org/licenses/by-nc/4.0/"),
    (15, "CC BY-NC-SA 4.0", "https://creativecommons.org/licenses/by-nc-sa/4.0/"),
    (16, "CC BY-NC-ND 4.0", "https://creativecommons.org/licenses/by-nc-nd/4.0/"),
]


@method("flickr.photos.licenses.getInfo")
def get_info(call: Call) -> list[Node]:
    node = Node("licenses")
    for number, name, url in LICENSES:
        node.add("license", {"id": number, "name": name, "url": url})
    return [node]

# SPDX-License-Identifier: MIT
"""What `flickr backup` and `flickr download` share to fetch media files: which size to take with
its fallbacks (`sizes`), and a fetch that streams a file of any size to disk outside the bounded
photo cache (`fetcher`)."""

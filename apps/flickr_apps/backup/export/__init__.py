# SPDX-License-Identifier: MIT
"""Flickr's account export ("Your Flickr Data") made into the backup's archive (docs/export.md):
`reader` reads the zips in place, bounded; `mapping` turns its JSON into the backup's model;
`engine` (`ExportBackup`) runs the backup's own item work on it."""

# SPDX-License-Identifier: MIT
"""The applications built on the `flickr` binding: the `flickr` command (`cli`), the account
backup and its export reader (`backup`), the download and media helpers (`_media`). They use only
the binding's public API (docs/python.md, "Public and private modules"); the binding forwards
`python -m flickr` and `flickr.backup` here. docs/architecture.md says why they live apart."""

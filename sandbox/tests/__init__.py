# SPDX-License-Identifier: MIT
"""The sandbox server's own tests (a package, so their module names never collide with the binding's)."""

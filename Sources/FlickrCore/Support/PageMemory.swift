// SPDX-License-Identifier: MIT

import CFlickrShims

/// Large buffers (a body of many MiB, the tree mapped from it) in pages of their own rather than
/// from malloc. glibc serves a large request from its heap once a freed large block has raised
/// its mmap threshold (to up to 32 MiB): a buffer that grows there is copied at each doubling,
/// old and new alive at once, and what it frees stays in the process. Mapped pages grow with
/// mremap, which moves page tables and never copies a byte; pages never written take no memory;
/// and munmap gives them back at once (bench/NOTES.md, Change 21).
enum PageMemory {
    /// Buffers of at least this many bytes are mapped: no real Flickr answer's (a 500-photo page
    /// with every extra is 0.6 MB; its expat buffer 1 MiB). Fresh pages cost a fault each where a
    /// reused heap block costs none: at 1 MiB, parsing that page in a loop took 35% longer.
    static let threshold = 2 << 20

    /// `bytes` of zeroed pages; nil when none are left.
    static func allocate(_ bytes: Int) -> UnsafeMutableRawPointer? {
        guard bytes > 0 else { return nil }
        return flickr__pages_map(bytes)
    }

    /// The pages at `pages` resized from `old` to `new` bytes, perhaps moved (contents kept);
    /// nil when they cannot grow, and then the old pages are still there.
    static func resize(_ pages: UnsafeMutableRawPointer, from old: Int, to new: Int) -> UnsafeMutableRawPointer? {
        guard old > 0, new > 0 else { return nil }
        return flickr__pages_remap(pages, old, new)
    }

    static func free(_ pages: UnsafeMutableRawPointer?, _ bytes: Int) {
        guard let pages, bytes > 0 else { return }
        flickr__pages_unmap(pages, bytes)
    }
}

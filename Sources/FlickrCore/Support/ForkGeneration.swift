// SPDX-License-Identifier: MIT

/// Which process this is across fork(): 0 in the process that loaded the library, one more in each
/// child of a fork. Whatever holds threads, connections or open files compares the count it saw when
/// it made them with this one, and starts afresh in a child (ForkGuard.swift says why and who calls).
package enum ForkGeneration {
    /// Written only by the child's fork handler, while the child has a single thread; every later
    /// thread starts after it.
    nonisolated(unsafe) package private(set) static var current: UInt64 = 0

    /// In the child of a fork, before anything else runs there.
    static func advanceInChild() { current &+= 1 }
}

// SPDX-License-Identifier: MIT
// Fuzz target for the key's budget file (Budget/): the input is the file as another process, a
// crash or a person left it. See FuzzTargets.swift for the entry point.
//
//   budget  the bytes read as a ring in memory (BudgetRing.open, then a reservation, a back-off
//           and the header read again), and written to a file that one BudgetFile, kept across
//           inputs, takes its ring from (BudgetFile.withRing: the size seen, remapping, checks,
//           rebuilding, growing). The last byte picks the budget (1 to 16 an hour), the clock
//           (hours either side of a fixed now) and whether the call has a deadline. Times in the
//           file are never trusted: a reservation is never before now nor more than 25 h ahead, a
//           back-off never more than an hour, and the ring is valid after every use.

#if canImport(Glibc)
import Glibc
#endif

/// The file the target writes each input to, and the one open of it all inputs share (so that
/// its mapping, sized by an earlier input, meets a file of another size).
nonisolated(unsafe) private var budgetFile: (path: String, file: BudgetFile)?

private func openBudgetFile() -> (path: String, file: BudgetFile)? {
    if let budgetFile { return budgetFile }
    var template = Array("/tmp/flickr-fuzz-budget-XXXXXX".utf8CString)
    guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else { return nil }
    let folder = String(cString: made)
    guard let file = try? BudgetFile(directory: BudgetDirectory(root: folder, folders: []), name: "fuzz.budget")
    else { return nil }
    budgetFile = (folder + "/fuzz.budget", file)
    atexit {  // the folder is the run's own: gone with it
        guard let path = budgetFile?.path else { return }
        unlink(path)
        rmdir(String(path.dropLast("/fuzz.budget".count)))
    }
    return budgetFile
}

private func check(_ holds: Bool, _ what: @autoclosure () -> String) {
    if !holds { fatalError("budget: \(what())") }
}

/// A reservation and a back-off on `ring`, and what must hold of them whatever the file held.
private func use(_ ring: BudgetRing, limit: Int, nowMs: Int64, deadlineMs: Int64?) {
    check(ring.count >= 0 && ring.count <= ring.capacity, "count \(ring.count) of \(ring.capacity)")
    check(ring.entries.count == ring.count, "entries")
    let host: Int64 = 0x5EED
    switch ring.reserve(limit: min(limit, ring.capacity), nowMs: nowMs, windowMs: KeyBudget.windowMs,
                        deadlineMs: deadlineMs) {
    case .granted(let atMs):
        check(atMs >= nowMs && atMs <= nowMs + BudgetRing.maxAheadMs, "granted at \(atMs), now \(nowMs)")
    case .full(let freeAtMs):
        check(deadlineMs.map { freeAtMs >= $0 } ?? false, "full at \(freeAtMs) without a deadline before it")
    }
    ring.backOff(untilMs: nowMs + 90_000_000, host: host, nowMs: nowMs)
    let held = ring.backoff(for: host, nowMs: nowMs)
    // Held an hour at most; or not at all, when the file keeps another host's that ends no sooner.
    let kept = ring.storedBackoff
    check(held.map { $0 > nowMs && $0 <= nowMs + BudgetRing.longestBackoffMs }
          ?? (kept.host != host && kept.untilMs >= nowMs + BudgetRing.longestBackoffMs), "back-off \(held as Any)")
}

func fuzzBudget(_ bytes: UnsafeRawBufferPointer) {
    let selector = Int(bytes.last ?? 0)
    let limit = 1 + selector % 16
    // Now: 2026, give or take 8 hours; the file's own clock field may say anything.
    let nowMs: Int64 = 1_780_000_000_000 + Int64(selector - 128) * 225_000
    let deadlineMs: Int64? = selector & 1 == 0 ? nil : nowMs + 60_000

    // The ring in memory, 8-byte aligned as a mapping is.
    let memory = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 8), alignment: 8)
    defer { memory.deallocate() }
    if let source = bytes.baseAddress { memory.copyMemory(from: source, byteCount: bytes.count) }
    if let ring = BudgetRing.open(memory, length: bytes.count) {
        use(ring, limit: limit, nowMs: nowMs, deadlineMs: deadlineMs)
        check(BudgetRing.open(memory, length: bytes.count) != nil, "a valid ring is no longer valid once used")
    }

    // The same bytes as the file, through the one open of it.
    guard let (path, file) = openBudgetFile() else { fatalError("budget: cannot make the fuzz file") }
    let fd = open(path, O_WRONLY | O_TRUNC | O_CLOEXEC)
    check(fd >= 0 && write(fd, bytes.baseAddress, bytes.count) == bytes.count, "cannot write the fuzz file")
    close(fd)
    do throws(FlickrError) {
        try file.withRing(holding: limit, nowMs: nowMs, within: .unlimited) { ring in
            check(ring.capacity >= limit, "a ring of \(ring.capacity) for a budget of \(limit)")
            use(ring, limit: limit, nowMs: nowMs, deadlineMs: deadlineMs)
        }
    } catch {
        fatalError("budget: the file was refused: \(error.message)")
    }
    // What the file holds now is a valid ring of at least `limit`, whatever it held before.
    var info = stat()
    check(stat(path, &info) == 0 && Int(info.st_size) >= BudgetRing.bytes(capacity: limit), "the file's size")
    let length = min(Int(info.st_size), BudgetFile.maxBytes)
    let after = UnsafeMutableRawPointer.allocate(byteCount: max(length, 8), alignment: 8)
    defer { after.deallocate() }
    let reader = open(path, O_RDONLY | O_CLOEXEC)
    check(reader >= 0 && read(reader, after, length) == length, "cannot read the fuzz file back")
    close(reader)
    check(BudgetRing.open(after, length: length).map { $0.capacity >= limit } ?? false, "the file is not a valid ring")
}

// SPDX-License-Identifier: MIT

import Glibc
import Testing

@testable import FlickrCore

/// The file under the ring: two opens of one path stand for two processes (flock excludes opens,
/// not processes), and the file is damaged between their calls as a crash or a person could.
@Suite struct BudgetFileTests {
    private static func path() -> String {
        var template = Array("/tmp/flickr-budget-XXXXXX".utf8CString)
        let dir = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return dir + "/key.budget"
    }

    private static func remove(_ path: String) {
        unlink(path)
        rmdir(String(path.dropLast("/key.budget".count)))
    }

    private static let window: Int64 = 1000

    /// The budget file at `path`, in its folder (made by `path()`, so none below it to check).
    private static func budgetFile(_ path: String) throws(FlickrError) -> BudgetFile {
        try BudgetFile(directory: BudgetDirectory(root: String(path.dropLast("/key.budget".count)), folders: []),
                       name: "key.budget")
    }

    /// One reservation through `file`.
    private static func reserve(_ file: BudgetFile, limit: Int, now: Int64, deadline: Int64? = nil,
                                within wait: WaitLimit = .unlimited) throws -> BudgetRing.Outcome {
        try file.withRing(holding: limit, nowMs: now, within: wait) { ring in
            ring.reserve(limit: limit, nowMs: now, windowMs: window, deadlineMs: deadline)
        }
    }

    private static func write(_ bytes: [UInt8], to path: String, truncate: Bool = true) {
        let fd = open(path, O_WRONLY | (truncate ? O_TRUNC : 0))
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    private static func size(_ path: String) -> Int {
        var info = stat()
        return stat(path, &info) == 0 ? Int(info.st_size) : -1
    }

    @Test func twoOpensShareOneBudget() throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let first = try Self.budgetFile(path), second = try Self.budgetFile(path)
        #expect(try Self.reserve(first, limit: 2, now: 100) == .granted(atMs: 100))
        #expect(try Self.reserve(second, limit: 2, now: 110) == .granted(atMs: 110))
        #expect(try Self.reserve(first, limit: 2, now: 120, deadline: 500) == .full(freeAtMs: 1100))
        var info = stat()
        #expect(stat(path, &info) == 0 && info.st_mode & 0o777 == 0o600)
    }

    @Test func aCorruptOrForeignFileIsRebuiltNeverTrusted() throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let first = try Self.budgetFile(path), second = try Self.budgetFile(path)
        _ = try Self.reserve(first, limit: 3, now: 100)
        var rebuilt = 0
        let damage: [[UInt8]] = [
            [],  // emptied
            Array("not a budget file\n".utf8),  // foreign
            Array(repeating: 0xFF, count: 5000),  // garbage, larger
            Array(repeating: 0, count: 64),  // header only, zeroes
        ]
        for bytes in damage {
            Self.write(bytes, to: path)
            #expect(try Self.reserve(second, limit: 3, now: 200) == .granted(atMs: 200))
            #expect(try Self.reserve(first, limit: 3, now: 210) == .granted(atMs: 210))
            #expect(Self.size(path) >= BudgetRing.bytes(capacity: 3))
            rebuilt += 1
        }
        // A valid header naming a ring larger than the file: refused, rebuilt at the file's size or more.
        _ = try Self.reserve(first, limit: 3, now: 300)
        var header = [UInt8](repeating: 0, count: 24)
        header.withUnsafeMutableBytes { raw in
            raw.storeBytes(of: BudgetRing.magic, toByteOffset: 0, as: UInt64.self)
            raw.storeBytes(of: BudgetRing.version, toByteOffset: 8, as: Int64.self)
            raw.storeBytes(of: Int64(BudgetRing.maxCapacity), toByteOffset: 16, as: Int64.self)
        }
        Self.write(header, to: path, truncate: false)
        #expect(try Self.reserve(second, limit: 3, now: 400) == .granted(atMs: 400))
        print("budget file: \(rebuilt + 1) damaged files rebuilt")
    }

    @Test func aLargerBudgetGrowsTheFileAndKeepsTheStarts() throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let small = try Self.budgetFile(path), large = try Self.budgetFile(path)
        for t: Int64 in [100, 110] { _ = try Self.reserve(small, limit: 2, now: t) }
        #expect(Self.size(path) == BudgetRing.bytes(capacity: 2))
        // The process asking for 4 grows the ring, keeping the two starts: two slots are left.
        #expect(try Self.reserve(large, limit: 4, now: 120) == .granted(atMs: 120))
        #expect(try Self.reserve(large, limit: 4, now: 130) == .granted(atMs: 130))
        #expect(try Self.reserve(large, limit: 4, now: 140, deadline: 500) == .full(freeAtMs: 1100))
        #expect(Self.size(path) == BudgetRing.bytes(capacity: 4))
        // The first, mapped at the old size, remaps and counts its own 2 back.
        #expect(try Self.reserve(small, limit: 2, now: 150, deadline: 500) == .full(freeAtMs: 1120))
    }

    @Test func aHeldLockIsWaitedForWithinTheDeadlineOnly() throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let file = try Self.budgetFile(path)
        let holder = open(path, O_RDWR)
        #expect(flock(holder, LOCK_EX) == 0)
        let start = MonotonicClock.nowNs()
        let wait = WaitLimit(deadlineNs: start + 200_000_000, interrupt: nil, isCancelled: nil)
        do throws(FlickrError) {
            _ = try file.withRing(holding: 1, nowMs: 100, within: wait) { _ in 0 }
            Issue.record("reserved while another open held the lock")
        } catch {
            #expect(error.code == .timeout && error.message.containsText("budget file"))
        }
        let waited = MonotonicClock.nowNs() - start
        print("budget file: a held lock waited for \(waited / 1_000_000) ms of a 200 ms limit")
        #expect(waited >= 200_000_000 && waited < 1_000_000_000)
        close(holder)  // as a holder killed with kill -9: the kernel drops its lock
        #expect(try Self.reserve(file, limit: 1, now: 100, within: wait) == .granted(atMs: 100))
    }

    @Test func aRemovedFileIsOpenedAgain() throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let first = try Self.budgetFile(path)
        _ = try Self.reserve(first, limit: 1, now: 1000)
        unlink(path)
        let second = try Self.budgetFile(path)  // a process starting now makes a new file
        _ = try Self.reserve(second, limit: 1, now: 1100)
        // Past the path check, the first follows the path to the new file and sees its start.
        #expect(try Self.reserve(first, limit: 1, now: 1000 + BudgetFile.pathCheckMs, deadline: 2050)
            == .full(freeAtMs: 2100))
    }

    @Test func aLinkAtThePathIsRefused() throws {
        let path = Self.path()
        defer { Self.remove(path) }
        #expect(symlink("/tmp/elsewhere-never-made", path) == 0)
        #expect(throws: FlickrError.self) { try Self.budgetFile(path) }
        #expect(access("/tmp/elsewhere-never-made", F_OK) != 0)
    }

    /// A hard link at the path names another file: opening refuses it, and a link made after the
    /// open is seen on the next use; the other file is never written.
    @Test func aHardLinkIsNeverWritten() throws {
        let path = Self.path()
        defer { Self.remove(path) }
        let other = path + ".other", second = path + ".second"
        defer { unlink(other); unlink(second) }
        let precious = Array("someone's data\n".utf8)
        #expect(close(creat(other, 0o600)) == 0)
        Self.write(precious, to: other)
        #expect(link(other, path) == 0)
        #expect(throws: FlickrError.self) { try Self.budgetFile(path) }
        var kept = [UInt8](repeating: 0, count: 64)
        let fd = open(other, O_RDONLY)
        let read = kept.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, 64) }
        close(fd)
        #expect(Array(kept.prefix(max(read, 0))) == precious)  // the other file: never written
        unlink(path)
        let file = try Self.budgetFile(path)
        _ = try Self.reserve(file, limit: 2, now: 100)
        #expect(link(path, second) == 0)  // linked once open
        do throws(FlickrError) {
            _ = try file.withRing(holding: 2, nowMs: 200, within: .unlimited) { _ in 0 }
            Issue.record("used a budget file with two names")
        } catch {
            #expect(error.code == .io && error.message.containsText("hard link"))
        }
    }

    /// A budget file or folder others may write is refused; so is a folder that is a link.
    @Test func filesAndFoldersOthersMayWriteAreRefused() throws {
        let path = Self.path()
        defer { Self.remove(path) }
        #expect(close(creat(path, 0o600)) == 0 && chmod(path, 0o620) == 0)
        #expect(throws: FlickrError.self) { try Self.budgetFile(path) }
        unlink(path)
        let root = String(path.dropLast("/key.budget".count))
        let directory = BudgetDirectory(root: root, folders: ["libflickr", "budget"])
        #expect(mkdir(root + "/libflickr", 0o700) == 0 && chmod(root + "/libflickr", 0o770) == 0)
        #expect(throws: FlickrError.self) { try BudgetFile(directory: directory, name: "key.budget") }
        #expect(chmod(root + "/libflickr", 0o700) == 0 && symlink(root, root + "/libflickr/budget") == 0)
        #expect(throws: FlickrError.self) { try BudgetFile(directory: directory, name: "key.budget") }
        #expect(access(path, F_OK) != 0)  // nothing made through the link
        unlink(root + "/libflickr/budget")
        let file = try BudgetFile(directory: directory, name: "key.budget")
        #expect(try Self.reserve(file, limit: 1, now: 100) == .granted(atMs: 100))
        unlink(root + "/libflickr/budget/key.budget")
        rmdir(root + "/libflickr/budget")
        rmdir(root + "/libflickr")
    }
}

import Foundation
import GatehouseCore
import GatehouseSQLite
import GatehouseTesting
import Logging
import SQLKit
import Testing

@testable import GatehouseStore

/// The SQLite backend checkpoints the write-ahead log on its own thread: commits never copy pages
/// into the database file or wait for `fsync` while other writes queue behind them.
@Suite("SQLite: the WAL is checkpointed off the request path", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SQLiteCheckpointTests {
    static let logger = Logger(label: "test-store")

    @Test func commitsLeaveCheckpointingToTheCheckpointerAndCloseEmptiesTheLog() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ckpt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.sqlite").path
        let backend = try await SQLiteBackend.open(path: path, logger: Self.logger)
        backend.checkpointer.start()
        let autocheckpoint = try await backend.write { db in
            try await db.raw("PRAGMA wal_autocheckpoint").first()?.decode(column: "wal_autocheckpoint", as: Int.self)
        }
        #expect(autocheckpoint == 0, "commits must not checkpoint")
        try await backend.write { db in try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)").run() }
        // Enough pages that SQLite's own threshold (1,000 pages) would have checkpointed inside a commit.
        let payload = String(repeating: "x", count: 3000)
        for row in 0..<1200 {
            try await backend.write { db in try await db.raw("INSERT INTO t (id, payload) VALUES (\(bind: row), \(bind: payload))").run() }
        }
        let deadline = Date().addingTimeInterval(10)
        while backend.checkpointer.checkpointCount == 0, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(backend.checkpointer.checkpointCount > 0, "the checkpointer ran after the writes")
        try await backend.close()
        let walSize = (try? FileManager.default.attributesOfItem(atPath: path + "-wal")[.size] as? Int) ?? 0
        #expect(walSize == 0, "closing checkpoints the whole log")

        let reopened = try await SQLiteBackend.open(path: path, logger: Self.logger)
        let count = try await reopened.read { db in try await db.raw("SELECT COUNT(*) AS n FROM t").first()?.decode(column: "n", as: Int.self) }
        #expect(count == 1200, "every committed row is in the database after the checkpoint")
        try await reopened.close()
    }

    /// The server opens the store in `beforeServerStarts` and runs the checkpointer in a service
    /// group of its own; a store that closes before that group gets to `run()` must not leave a
    /// `run()` that never returns (and a shutdown that hangs on it).
    @Test func runReturnsWhenTheStoreClosedBeforeItStarted() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ckpt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try await SQLiteBackend.open(path: directory.appendingPathComponent("test.sqlite").path, logger: Self.logger)
        try await backend.close()
        let finished = try await withThrowingTaskGroup(of: Bool.self) { group in
            group.addTask {
                try await backend.checkpointer.run()
                return true
            }
            group.addTask {
                try await Task.sleep(for: .seconds(10))
                return false
            }
            let first = try await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(finished, "run() returned by itself, without graceful shutdown or cancellation")
    }

    @Test func theLogStartsOverUnderSustainedWrites() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ckpt-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("test.sqlite").path
        let backend = try await SQLiteBackend.open(path: path, checkpointRestartFrames: 100, logger: Self.logger)
        backend.checkpointer.start()
        try await backend.write { db in try await db.raw("CREATE TABLE t (id INTEGER PRIMARY KEY, payload TEXT NOT NULL)").run() }
        // Writes that never pause: a passive checkpoint alone never lets the log start over. Keep
        // writing for 1.5 s and until the checkpointer has had a few rounds (slow under load).
        var commits = 0
        let start = Date()
        while Date().timeIntervalSince(start) < 1.5 || (backend.checkpointer.checkpointCount < 4 && Date().timeIntervalSince(start) < 30) {
            try await backend.write { db in try await db.raw("INSERT INTO t (payload) VALUES (\(bind: String(repeating: "y", count: 100)))").run() }
            commits += 1
        }
        // The log's length now, as another connection sees it (every commit appended at least one
        // page). While the checkpointer's own checkpoint runs, this one is busy and reports -1: retry.
        let observer = try DirectSQLiteConnection(path: path)
        var logFrames = -1
        for _ in 0..<500 where logFrames < 0 {
            try observer.execute("PRAGMA wal_checkpoint(PASSIVE)", []) { row in
                if case .integer(let log) = try row.value("log") { logFrames = Int(log) }
            }
            if logFrames < 0 { try await Task.sleep(for: .milliseconds(10)) }
        }
        observer.close()
        #expect(logFrames >= 0 && logFrames < commits, "log of \(logFrames) frames after \(commits) commits: it never started over")
        let count = try await backend.read { db in try await db.raw("SELECT COUNT(*) AS n FROM t").first()?.decode(column: "n", as: Int.self) }
        #expect(count == commits)
        try await backend.close()
    }
}

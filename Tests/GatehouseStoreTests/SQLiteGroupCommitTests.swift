import Foundation
import GatehouseCore
import GatehouseTesting
import Logging
import SQLKit
import Testing

@testable import GatehouseStore

/// Concurrent write transactions share a commit, and still succeed or fail one by one.
@Suite("SQLite: concurrent writes share a commit, each keeps its own outcome", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SQLiteGroupCommitTests {
    static let logger = Logger(label: "test-store")

    static func withBackend(_ body: (SQLiteBackend) async throws -> Void) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("group-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        let backend = try await SQLiteBackend.open(path: directory.appendingPathComponent("test.sqlite").path, logger: logger)
        try await backend.write { db in try await db.raw("CREATE TABLE t (k TEXT PRIMARY KEY, v INTEGER NOT NULL)").run() }
        try await body(backend)
        try await backend.close()
    }

    @Test func aFailingWriteIsRolledBackAloneAndTheOthersCommit() async throws {
        try await Self.withBackend { backend in
            try await backend.write { db in try await db.raw("INSERT INTO t (k, v) VALUES ('taken', 0)").run() }
            // 200 concurrent transactions of two inserts each; every fifth one collides on its second
            // insert after its first succeeded, so its first insert must be undone with it.
            let outcomes = await withTaskGroup(of: (Int, Bool).self) { group in
                for i in 0..<200 {
                    group.addTask {
                        do {
                            let echoed = try await backend.write { db -> Int in
                                try await db.raw("INSERT INTO t (k, v) VALUES (\(bind: "a\(i)"), \(bind: i))").run()
                                try await db.raw("INSERT INTO t (k, v) VALUES (\(bind: i % 5 == 0 ? "taken" : "b\(i)"), \(bind: i))").run()
                                return i
                            }
                            return (echoed, true)
                        } catch {
                            #expect(backend.isUniqueViolation(error), "\(error)")
                            return (i, false)
                        }
                    }
                }
                var all: [(Int, Bool)] = []
                for await outcome in group { all.append(outcome) }
                return all
            }
            #expect(outcomes.count == 200)
            for (i, committed) in outcomes { #expect(committed == (i % 5 != 0), "write \(i)") }
            let keys = try await backend.read { db in try await db.raw("SELECT k FROM t").all().map { try $0.decode(column: "k", as: String.self) } }
            let expected = Set((0..<200).filter { $0 % 5 != 0 }.flatMap { ["a\($0)", "b\($0)"] } + ["taken"])
            #expect(
                Set(keys).symmetricDifference(expected).isEmpty,
                "only the successful transactions' rows, whole: \(Set(keys).symmetricDifference(expected).sorted())"
            )
        }
    }

    @Test func writesThatQueueBehindARunningOneCommitTogether() async throws {
        try await Self.withBackend { backend in
            let before = backend.groupCommit.counts
            let (gate, open) = AsyncStream<Void>.makeStream()
            let (entered, enter) = AsyncStream<Void>.makeStream()
            // A write that holds its transaction open until the gate opens.
            let first = Task {
                try await backend.write { db in
                    try await db.raw("INSERT INTO t (k, v) VALUES ('first', 0)").run()
                    enter.yield()
                    for await _ in gate { break }
                    return 0
                }
            }
            for await _ in entered { break }
            // Ten more arrive meanwhile; the fourth fails.
            let rest = (1...10).map { i in
                Task {
                    try await backend.write { db in
                        try await db.raw("INSERT INTO t (k, v) VALUES (\(bind: i == 4 ? "first" : "k\(i)"), \(bind: i))").run()
                        return i
                    }
                }
            }
            while backend.groupCommit.counts.queued < 10 { try await Task.sleep(for: .milliseconds(5)) }
            open.yield()
            #expect(try await first.value == 0)
            for (index, task) in rest.enumerated() {
                let i = index + 1
                let result = await task.result
                if i == 4 {
                    #expect(throws: (any Error).self) { try result.get() }
                } else {
                    #expect(try result.get() == i)
                }
            }
            let after = backend.groupCommit.counts
            #expect(after.transactions - before.transactions == 2, "the ten queued writes shared one commit")
            #expect(after.writes - before.writes == 11)
            let count = try await backend.read { db in try await db.raw("SELECT COUNT(*) AS n FROM t").first()?.decode(column: "n", as: Int.self) }
            #expect(count == 10, "first and nine of the ten")
        }
    }
}

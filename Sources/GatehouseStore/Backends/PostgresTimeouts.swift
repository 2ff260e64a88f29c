import Foundation
import GatehouseCore
import NIOCore
import PostgresNIO
import Synchronization

/// The time bounds of a PostgreSQL store operation, from the database URL:
///
/// - `acquire_timeout` (seconds, default 5): how long an operation waits for a pooled connection. While
///   PostgreSQL is down the pool keeps retrying its connections; a request gives up after this and
///   answers 503 `unavailable` instead of waiting.
/// - `query_timeout` (seconds, default 10): sent to the server as `statement_timeout`, so a slow
///   statement is cancelled there (503); if the server does not answer at all, the operation's
///   connection is closed 2 s later, which fails the operation (503) and frees the pool's slot.
///
/// Migrations are exempt (``PostgresBackend/migrationWrite(_:)``): they may wait for another instance's.
struct PostgresTimeouts: Sendable {
    let acquireSeconds: Int
    let querySeconds: Int

    /// An operation that ran out of time; the store maps it to 503 `unavailable`.
    struct Expired: Error, CustomStringConvertible {
        let description: String
    }

    init(acquireSeconds: Int = 5, querySeconds: Int = 10) {
        self.acquireSeconds = acquireSeconds
        self.querySeconds = querySeconds
    }

    init(url: URL) throws {
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false) ?? URLComponents()
        self.init(
            acquireSeconds: try PostgresBackend.integer("acquire_timeout", in: components, range: 1...120) ?? 5,
            querySeconds: try PostgresBackend.integer("query_timeout", in: components, range: 1...3600) ?? 10
        )
    }

    var statementMilliseconds: Int { querySeconds * 1000 }

    /// Runs `body` on a pooled connection within the bounds above.
    /// - Throws: ``Expired`` when a bound is reached; otherwise whatever `body` or the pool throws.
    func bounded<T: Sendable>(
        _ client: PostgresClient,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let state = OperationState()
        let acquire = Duration.seconds(acquireSeconds)
        let watchdog = TimeAmount.seconds(Int64(querySeconds + 2))
        let querySeconds = self.querySeconds
        return try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask {
                try await client.withConnection { connection in
                    state.leased.store(true, ordering: .releasing)
                    let scheduled = connection.eventLoop.scheduleTask(in: watchdog) {
                        state.closedByWatchdog.store(true, ordering: .releasing)
                        let closing: EventLoopFuture<Void> = connection.close()
                        _ = closing
                    }
                    defer { scheduled.cancel() }
                    do {
                        return try await body(connection)
                    } catch  where state.closedByWatchdog.load(ordering: .acquiring) {
                        throw Expired(description: "PostgreSQL did not answer within \(querySeconds + 2) s; the connection was closed")
                    }
                }
            }
            group.addTask {
                try await Task.sleep(for: acquire)
                // Once a connection is leased, the watchdog bounds the rest.
                if state.leased.load(ordering: .acquiring) { return nil }
                throw Expired(description: "no PostgreSQL connection within \(acquire) (acquire_timeout)")
            }
            while let result = try await group.next() {
                if let value = result {
                    group.cancelAll()
                    return value
                }
            }
            throw Expired(description: "the operation ended without a result")
        }
    }

    /// What the two racing tasks of one operation share.
    private final class OperationState: Sendable {
        let leased = Atomic<Bool>(false)
        let closedByWatchdog = Atomic<Bool>(false)
    }
}

import Foundation
import Logging
import NIOCore
import PostgresKit
import PostgresNIO
import SQLKit

/// A connection's SQL database that refuses to send a statement once the connection is closed.
///
/// postgres-nio 1.33 hands a statement to the connection's channel without a promise; once the channel
/// is closed and its handlers are gone (PostgreSQL shut down, or our watchdog closed it), nothing ever
/// completes that statement, and the request awaiting it would wait forever (seen: a refresh in flight
/// when PostgreSQL stopped, then its ROLLBACK). So each statement is checked and handed over in one
/// turn of the connection's event loop, where the close is processed too: either the channel is still
/// open and its handler takes the statement (and fails it if the connection closes later), or the
/// statement fails at once with ``Closed``, which the store maps to 503 `unavailable`. (Checked from
/// another thread, the close could slip in between the check and the hand-over: seen once in three
/// fleet runs.)
struct GuardedPostgresDatabase: SQLDatabase {
    /// The connection was closed before the statement could be sent.
    struct Closed: Error, CustomStringConvertible {
        var description: String { "the PostgreSQL connection is closed" }
    }

    let connection: PostgresConnection
    let base: any SQLDatabase

    init(_ connection: PostgresConnection) {
        self.connection = connection
        self.base = connection.sql(queryLogLevel: nil)
    }

    var logger: Logger { base.logger }
    var eventLoop: any EventLoop { base.eventLoop }
    var version: (any SQLDatabaseReportedVersion)? { base.version }
    var dialect: any SQLDialect { base.dialect }
    var queryLogLevel: Logger.Level? { base.queryLogLevel }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        let (connection, base) = (self.connection, self.base)
        return connection.eventLoop.flatSubmit {
            guard !connection.isClosed else { return connection.eventLoop.makeFailedFuture(Closed()) }
            return base.execute(sql: query, onRow)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try await execute(sql: query, onRow).get()
    }
}

import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    private static let messageColumns = "id, channel, kind, state, sealed_request, sealing_context, attempts, next_attempt_at, created_at, last_error"

    func enqueueMessage(_ message: QueuedMessage) async throws {
        try await insert(
            """
            INSERT INTO gh_messages (id, channel, kind, state, sealed_request, sealing_context, attempts, next_attempt_at, created_at, updated_at)
            VALUES (\(bind: message.id), \(bind: message.channel), \(bind: message.kind), \(bind: message.state.rawValue), \(bind: message.sealedRequest),
                    \(bind: message.sealing.rawValue), \(bind: message.attempts), \(bind: message.nextAttemptAt.epochSeconds),
                    \(bind: message.createdAt.epochSeconds), \(bind: message.createdAt.epochSeconds))
            """,
            constraint: "message id"
        )
    }

    func claimDueMessages(now: Date, lease: String, leaseUntil: Date, limit: Int, channels: [String]) async throws -> [QueuedMessage] {
        guard !channels.isEmpty else { return [] }
        let t = now.epochSeconds
        let channelList = SQLList(channels.map { SQLBind($0) })
        // PostgreSQL: rows another instance is claiming right now are skipped, not waited for. SQLite has
        // one writer at a time, so the plain statement is already exclusive.
        let skipLocked = backend.name == "postgres" ? " FOR UPDATE SKIP LOCKED" : ""
        return try await all(
            """
            UPDATE gh_messages SET lease = \(bind: lease), lease_until = \(bind: leaseUntil.epochSeconds)
            WHERE id IN (
                SELECT id FROM gh_messages
                WHERE state = 'queued' AND next_attempt_at <= \(bind: t) AND (lease_until IS NULL OR lease_until <= \(bind: t))
                    AND channel IN (\(channelList))
                ORDER BY next_attempt_at, id LIMIT \(bind: limit)\(unsafeRaw: skipLocked)
            )
            RETURNING \(unsafeRaw: Self.messageColumns)
            """
        ).map(Self.decodeMessage).sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
    }

    func markMessageSent(id: String, lease: String, at: Date) async throws -> Bool {
        try await first(
            """
            UPDATE gh_messages SET state = 'sent', sealed_request = NULL, lease = NULL, lease_until = NULL, last_error = NULL,
                attempts = attempts + 1, updated_at = \(bind: at.epochSeconds)
            WHERE id = \(bind: id) AND lease = \(bind: lease) AND state = 'queued' RETURNING id
            """
        ) != nil
    }

    func rescheduleMessage(id: String, lease: String, attempts: Int, nextAttemptAt: Date, at: Date, error: String) async throws -> Bool {
        try await first(
            """
            UPDATE gh_messages SET attempts = \(bind: attempts), next_attempt_at = \(bind: nextAttemptAt.epochSeconds), lease = NULL,
                lease_until = NULL, last_error = \(bind: String(error.prefix(500))), updated_at = \(bind: at.epochSeconds)
            WHERE id = \(bind: id) AND lease = \(bind: lease) AND state = 'queued' RETURNING id
            """
        ) != nil
    }

    func markMessageDead(id: String, lease: String, attempts: Int, at: Date, error: String) async throws -> Bool {
        try await first(
            """
            UPDATE gh_messages SET state = 'dead', sealed_request = NULL, attempts = \(bind: attempts), lease = NULL, lease_until = NULL,
                last_error = \(bind: String(error.prefix(500))), updated_at = \(bind: at.epochSeconds)
            WHERE id = \(bind: id) AND lease = \(bind: lease) AND state = 'queued' RETURNING id
            """
        ) != nil
    }

    func queuedMessage(id: String) async throws -> QueuedMessage? {
        try await first("SELECT \(unsafeRaw: Self.messageColumns) FROM gh_messages WHERE id = \(bind: id)").map(Self.decodeMessage)
    }

    func messageQueueCounts() async throws -> (queued: Int, dead: Int) {
        var counts = (queued: 0, dead: 0)
        for row in try await all("SELECT state, COUNT(*) AS n FROM gh_messages WHERE state IN ('queued', 'dead') GROUP BY state") {
            let n = try row.int("n")
            if try row.string("state") == "queued" { counts.queued = n } else { counts.dead = n }
        }
        return counts
    }

    func nextMessageDue() async throws -> Date? {
        try await first("SELECT MIN(next_attempt_at) AS due FROM gh_messages WHERE state = 'queued'").flatMap { try $0.optionalDate("due") }
    }

    func purgeMessages(before: Date) async throws -> Int {
        try await all(
            "DELETE FROM gh_messages WHERE state IN ('sent', 'dead', 'decoy') AND updated_at < \(bind: before.epochSeconds) RETURNING id"
        ).count
    }

    /// A row; an unknown sealing context reads as ``QueuedMessage/Sealing/message`` (its body then does
    /// not open, and the dispatcher dead-letters it rather than guessing).
    static func decodeMessage(_ row: any SQLRow) throws -> QueuedMessage {
        QueuedMessage(
            id: try row.string("id"),
            channel: try row.string("channel"),
            kind: try row.string("kind"),
            state: QueuedMessage.State(rawValue: try row.string("state")) ?? .dead,
            sealedRequest: try row.optionalString("sealed_request"),
            sealing: QueuedMessage.Sealing(rawValue: try row.string("sealing_context")) ?? .message,
            attempts: try row.int("attempts"),
            nextAttemptAt: try row.date("next_attempt_at"),
            createdAt: try row.date("created_at"),
            lastError: try row.optionalString("last_error")
        )
    }
}

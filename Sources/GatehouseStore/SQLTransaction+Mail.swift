import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    private static let mailColumns = "id, channel, kind, state, sealed_request, attempts, next_attempt_at, created_at, last_error"

    func enqueueMail(_ mail: QueuedMail) async throws {
        try await insert(
            """
            INSERT INTO gh_mail_queue (id, channel, kind, state, sealed_request, attempts, next_attempt_at, created_at, updated_at)
            VALUES (\(bind: mail.id), \(bind: mail.channel), \(bind: mail.kind), \(bind: mail.state.rawValue), \(bind: mail.sealedRequest), \(bind: mail.attempts),
                    \(bind: mail.nextAttemptAt.epochSeconds), \(bind: mail.createdAt.epochSeconds), \(bind: mail.createdAt.epochSeconds))
            """,
            constraint: "mail id"
        )
    }

    func claimDueMail(now: Date, lease: String, leaseUntil: Date, limit: Int, channels: [String]) async throws -> [QueuedMail] {
        guard !channels.isEmpty else { return [] }
        let t = now.epochSeconds
        let channelList = SQLList(channels.map { SQLBind($0) })
        // PostgreSQL: rows another instance is claiming right now are skipped, not waited for. SQLite has
        // one writer at a time, so the plain statement is already exclusive.
        let skipLocked = backend.name == "postgres" ? " FOR UPDATE SKIP LOCKED" : ""
        return try await all(
            """
            UPDATE gh_mail_queue SET lease = \(bind: lease), lease_until = \(bind: leaseUntil.epochSeconds)
            WHERE id IN (
                SELECT id FROM gh_mail_queue
                WHERE state = 'queued' AND next_attempt_at <= \(bind: t) AND (lease_until IS NULL OR lease_until <= \(bind: t))
                    AND channel IN (\(channelList))
                ORDER BY next_attempt_at, id LIMIT \(bind: limit)\(unsafeRaw: skipLocked)
            )
            RETURNING \(unsafeRaw: Self.mailColumns)
            """
        ).map(Self.decodeMail).sorted { ($0.nextAttemptAt, $0.id) < ($1.nextAttemptAt, $1.id) }
    }

    func markMailSent(id: String, lease: String, at: Date) async throws -> Bool {
        try await first(
            """
            UPDATE gh_mail_queue SET state = 'sent', sealed_request = NULL, lease = NULL, lease_until = NULL, last_error = NULL,
                attempts = attempts + 1, updated_at = \(bind: at.epochSeconds)
            WHERE id = \(bind: id) AND lease = \(bind: lease) AND state = 'queued' RETURNING id
            """
        ) != nil
    }

    func rescheduleMail(id: String, lease: String, attempts: Int, nextAttemptAt: Date, at: Date, error: String) async throws -> Bool {
        try await first(
            """
            UPDATE gh_mail_queue SET attempts = \(bind: attempts), next_attempt_at = \(bind: nextAttemptAt.epochSeconds), lease = NULL,
                lease_until = NULL, last_error = \(bind: String(error.prefix(500))), updated_at = \(bind: at.epochSeconds)
            WHERE id = \(bind: id) AND lease = \(bind: lease) AND state = 'queued' RETURNING id
            """
        ) != nil
    }

    func markMailDead(id: String, lease: String, attempts: Int, at: Date, error: String) async throws -> Bool {
        try await first(
            """
            UPDATE gh_mail_queue SET state = 'dead', sealed_request = NULL, attempts = \(bind: attempts), lease = NULL, lease_until = NULL,
                last_error = \(bind: String(error.prefix(500))), updated_at = \(bind: at.epochSeconds)
            WHERE id = \(bind: id) AND lease = \(bind: lease) AND state = 'queued' RETURNING id
            """
        ) != nil
    }

    func queuedMail(id: String) async throws -> QueuedMail? {
        try await first("SELECT \(unsafeRaw: Self.mailColumns) FROM gh_mail_queue WHERE id = \(bind: id)").map(Self.decodeMail)
    }

    func mailQueueCounts() async throws -> (queued: Int, dead: Int) {
        var counts = (queued: 0, dead: 0)
        for row in try await all("SELECT state, COUNT(*) AS n FROM gh_mail_queue WHERE state IN ('queued', 'dead') GROUP BY state") {
            let n = try row.int("n")
            if try row.string("state") == "queued" { counts.queued = n } else { counts.dead = n }
        }
        return counts
    }

    func nextMailDue() async throws -> Date? {
        try await first("SELECT MIN(next_attempt_at) AS due FROM gh_mail_queue WHERE state = 'queued'").flatMap { try $0.optionalDate("due") }
    }

    func purgeMail(before: Date) async throws -> Int {
        try await all(
            "DELETE FROM gh_mail_queue WHERE state IN ('sent', 'dead', 'decoy') AND updated_at < \(bind: before.epochSeconds) RETURNING id"
        ).count
    }

    static func decodeMail(_ row: any SQLRow) throws -> QueuedMail {
        QueuedMail(
            id: try row.string("id"),
            channel: try row.string("channel"),
            kind: try row.string("kind"),
            state: QueuedMail.State(rawValue: try row.string("state")) ?? .dead,
            sealedRequest: try row.optionalString("sealed_request"),
            attempts: try row.int("attempts"),
            nextAttemptAt: try row.date("next_attempt_at"),
            createdAt: try row.date("created_at"),
            lastError: try row.optionalString("last_error")
        )
    }
}

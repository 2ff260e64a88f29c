import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    func replaceCode(_ code: OneTimeCodeRecord) async throws {
        try await db.raw(
            """
            INSERT INTO gh_codes (user_id, purpose, code_hash, created_at, expires_at, attempts, address)
            VALUES (\(bind: code.userID), \(bind: code.purpose.rawValue), \(bind: code.codeHash), \(bind: code.createdAt.epochSeconds),
                    \(bind: code.expiresAt.epochSeconds), \(bind: code.attempts), \(bind: code.address))
            ON CONFLICT (user_id, purpose) DO UPDATE SET code_hash = excluded.code_hash, created_at = excluded.created_at,
                expires_at = excluded.expires_at, attempts = excluded.attempts, address = excluded.address
            """
        ).run()
    }

    func code(userID: String, purpose: OneTimeCodeRecord.Purpose) async throws -> OneTimeCodeRecord? {
        try await first(
            """
            SELECT user_id, purpose, code_hash, created_at, expires_at, attempts, address FROM gh_codes
            WHERE user_id = \(bind: userID) AND purpose = \(bind: purpose.rawValue)
            """
        ).map { row in
            OneTimeCodeRecord(
                userID: try row.string("user_id"),
                purpose: purpose,
                codeHash: try row.string("code_hash"),
                createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at"),
                attempts: try row.int("attempts"),
                address: try row.optionalString("address")
            )
        }
    }

    func spendCodeAttempt(userID: String, purpose: OneTimeCodeRecord.Purpose, maxAttempts: Int) async throws -> OneTimeCodeRecord? {
        // Under READ COMMITTED a concurrent UPDATE of the row waits for the row lock and then
        // re-checks the WHERE clause against the committed count, so no two guesses share a try.
        try await first(
            """
            UPDATE gh_codes SET attempts = attempts + 1
            WHERE user_id = \(bind: userID) AND purpose = \(bind: purpose.rawValue) AND attempts < \(bind: maxAttempts)
            RETURNING user_id, code_hash, created_at, expires_at, attempts, address
            """
        ).map { row in
            OneTimeCodeRecord(
                userID: try row.string("user_id"),
                purpose: purpose,
                codeHash: try row.string("code_hash"),
                createdAt: try row.date("created_at"),
                expiresAt: try row.date("expires_at"),
                attempts: try row.int("attempts"),
                address: try row.optionalString("address")
            )
        }
    }

    func deleteCode(userID: String, purpose: OneTimeCodeRecord.Purpose) async throws {
        try await db.raw("DELETE FROM gh_codes WHERE user_id = \(bind: userID) AND purpose = \(bind: purpose.rawValue)").run()
    }

    func deleteCodes(userID: String) async throws {
        try await db.raw("DELETE FROM gh_codes WHERE user_id = \(bind: userID)").run()
    }

    // MARK: Rate limits

    func counter(bucket: String) async throws -> RateCounter? {
        try await first("SELECT count, window_start, blocked_until_ms FROM gh_rate_limits WHERE bucket = \(bind: bucket)").map(Self.decodeCounter)
    }

    func incrementCounter(bucket: String, now: Date, window: TimeInterval) async throws -> RateCounter {
        let t = now.epochSeconds
        let cutoff = t - Int64(window.rounded(.up))
        guard
            let row = try await first(
                """
                INSERT INTO gh_rate_limits (bucket, count, window_start, blocked_until, blocked_until_ms)
                VALUES (\(bind: bucket), 1, \(bind: t), NULL, NULL)
                ON CONFLICT (bucket) DO UPDATE SET
                    count = CASE WHEN gh_rate_limits.window_start <= \(bind: cutoff) THEN 1 ELSE gh_rate_limits.count + 1 END,
                    blocked_until = CASE WHEN gh_rate_limits.window_start <= \(bind: cutoff) THEN NULL ELSE gh_rate_limits.blocked_until END,
                    blocked_until_ms = CASE WHEN gh_rate_limits.window_start <= \(bind: cutoff) THEN NULL ELSE gh_rate_limits.blocked_until_ms END,
                    window_start = CASE WHEN gh_rate_limits.window_start <= \(bind: cutoff) THEN \(bind: t) ELSE gh_rate_limits.window_start END
                RETURNING count, window_start, blocked_until_ms
                """
            )
        else { throw GatehouseError.internalError(cause: "rate-limit upsert returned nothing") }
        return try Self.decodeCounter(row)
    }

    func reserveAttempt(bucket: String, now: Date, window: TimeInterval) async throws -> RateCounter? {
        let t = now.epochSeconds
        let ms = now.epochMilliseconds
        let cutoff = t - Int64(window.rounded(.up))
        // One statement: a blocked bucket matches no row to update, so nothing is counted and nothing
        // returned; concurrent reservations of one bucket take turns on its row lock.
        return try await first(
            """
            INSERT INTO gh_rate_limits (bucket, count, window_start, blocked_until, blocked_until_ms)
            VALUES (\(bind: bucket), 1, \(bind: t), NULL, NULL)
            ON CONFLICT (bucket) DO UPDATE SET
                count = CASE WHEN gh_rate_limits.window_start <= \(bind: cutoff) THEN 1 ELSE gh_rate_limits.count + 1 END,
                blocked_until = CASE WHEN gh_rate_limits.window_start <= \(bind: cutoff) THEN NULL ELSE gh_rate_limits.blocked_until END,
                blocked_until_ms = CASE WHEN gh_rate_limits.window_start <= \(bind: cutoff) THEN NULL ELSE gh_rate_limits.blocked_until_ms END,
                window_start = CASE WHEN gh_rate_limits.window_start <= \(bind: cutoff) THEN \(bind: t) ELSE gh_rate_limits.window_start END
            WHERE gh_rate_limits.blocked_until_ms IS NULL OR gh_rate_limits.blocked_until_ms <= \(bind: ms)
            RETURNING count, window_start, blocked_until_ms
            """
        ).map(Self.decodeCounter)
    }

    func releaseAttempt(bucket: String, windowStart: Date, blockedUntil: Date?) async throws {
        try await db.raw(
            """
            UPDATE gh_rate_limits SET count = count - 1,
                blocked_until = CASE WHEN blocked_until_ms = \(bind: blockedUntil?.epochMilliseconds) THEN NULL ELSE blocked_until END,
                blocked_until_ms = CASE WHEN blocked_until_ms = \(bind: blockedUntil?.epochMilliseconds) THEN NULL ELSE blocked_until_ms END
            WHERE bucket = \(bind: bucket) AND window_start = \(bind: windowStart.epochSeconds) AND count > 0
            """
        ).run()
    }

    func setBlockedUntil(bucket: String, until: Date) async throws {
        // Whole seconds rounded up for an older instance in a rolling upgrade; this version reads the milliseconds.
        let seconds = Int64((until.timeIntervalSince1970).rounded(.up))
        try await db.raw(
            "UPDATE gh_rate_limits SET blocked_until = \(bind: seconds), blocked_until_ms = \(bind: until.epochMilliseconds) WHERE bucket = \(bind: bucket)"
        ).run()
    }

    func deleteCounter(bucket: String) async throws {
        try await db.raw("DELETE FROM gh_rate_limits WHERE bucket = \(bind: bucket)").run()
    }

    static func decodeCounter(_ row: any SQLRow) throws -> RateCounter {
        RateCounter(
            count: try row.int("count"),
            windowStart: try row.date("window_start"),
            blockedUntil: try row.optionalMillisecondDate("blocked_until_ms")
        )
    }

    // MARK: Settings

    func setting(_ key: String) async throws -> String? {
        try await first("SELECT value FROM gh_settings WHERE key = \(bind: key)").map { try $0.string("value") }
    }

    func insertSettingIfAbsent(_ key: String, value: String) async throws -> String {
        try await db.raw("INSERT INTO gh_settings (key, value) VALUES (\(bind: key), \(bind: value)) ON CONFLICT (key) DO NOTHING").run()
        guard let stored = try await setting(key) else { throw GatehouseError.internalError(cause: "setting vanished right after insert") }
        return stored
    }
}

import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    func totp(userID: String) async throws -> TOTPRecord? {
        try await first("SELECT user_id, secret, confirmed_at, last_step, created_at FROM gh_totp WHERE user_id = \(bind: userID)").map { row in
            TOTPRecord(
                userID: try row.string("user_id"),
                sealedSecret: try row.string("secret"),
                confirmedAt: try row.optionalDate("confirmed_at"),
                lastStep: Int64(try row.int("last_step")),
                createdAt: try row.date("created_at")
            )
        }
    }

    func putTOTP(_ record: TOTPRecord) async throws {
        try await db.raw("DELETE FROM gh_totp WHERE user_id = \(bind: record.userID)").run()
        try await insert(
            """
            INSERT INTO gh_totp (user_id, secret, confirmed_at, last_step, created_at)
            VALUES (\(bind: record.userID), \(bind: record.sealedSecret), \(bind: record.confirmedAt?.epochSeconds), \(bind: record.lastStep),
                    \(bind: record.createdAt.epochSeconds))
            """,
            constraint: "authenticator app"
        )
    }

    func acceptTOTPStep(userID: String, step: Int64, confirmAt: Date?) async throws -> Bool {
        if let confirmAt {
            return try await first(
                """
                UPDATE gh_totp SET last_step = \(bind: step), confirmed_at = \(bind: confirmAt.epochSeconds)
                WHERE user_id = \(bind: userID) AND last_step < \(bind: step) AND confirmed_at IS NULL RETURNING user_id
                """
            ) != nil
        }
        return try await first(
            """
            UPDATE gh_totp SET last_step = \(bind: step)
            WHERE user_id = \(bind: userID) AND last_step < \(bind: step) AND confirmed_at IS NOT NULL RETURNING user_id
            """
        ) != nil
    }

    func deleteMFA(userID: String) async throws {
        try await db.raw("DELETE FROM gh_totp WHERE user_id = \(bind: userID)").run()
        try await db.raw("DELETE FROM gh_recovery_codes WHERE user_id = \(bind: userID)").run()
    }

    func replaceRecoveryCodes(userID: String, hashes: [String], at: Date) async throws {
        try await db.raw("DELETE FROM gh_recovery_codes WHERE user_id = \(bind: userID)").run()
        for hash in hashes {
            try await insert(
                """
                INSERT INTO gh_recovery_codes (user_id, code_hash, created_at, used_at)
                VALUES (\(bind: userID), \(bind: hash), \(bind: at.epochSeconds), NULL)
                """,
                constraint: "recovery code"
            )
        }
    }

    func useRecoveryCode(userID: String, hash: String, at: Date) async throws -> Bool {
        try await first(
            """
            UPDATE gh_recovery_codes SET used_at = \(bind: at.epochSeconds)
            WHERE user_id = \(bind: userID) AND code_hash = \(bind: hash) AND used_at IS NULL RETURNING user_id
            """
        ) != nil
    }

    func unusedRecoveryCodeCount(userID: String) async throws -> Int {
        let row = try await first("SELECT COUNT(*) AS unused FROM gh_recovery_codes WHERE user_id = \(bind: userID) AND used_at IS NULL")
        return try row?.int("unused") ?? 0
    }
}

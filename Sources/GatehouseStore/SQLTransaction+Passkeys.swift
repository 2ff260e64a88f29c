import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    private static let passkeyColumns =
        "id, user_id, public_key, sign_count, transports, backup_eligible, backed_up, name, created_at, last_used_at, flagged_at"

    func insertPasskey(_ passkey: PasskeyRecord) async throws {
        try await insert(
            """
            INSERT INTO gh_passkeys (id, user_id, public_key, sign_count, transports, backup_eligible, backed_up, name, created_at, last_used_at, flagged_at)
            VALUES (\(bind: passkey.id), \(bind: passkey.userID), \(bind: passkey.publicKey), \(bind: passkey.signCount),
                    \(bind: passkey.transports.joined(separator: ",")), \(bind: passkey.backupEligible), \(bind: passkey.backedUp),
                    \(bind: passkey.name), \(bind: passkey.createdAt.epochSeconds), \(bind: passkey.lastUsedAt?.epochSeconds),
                    \(bind: passkey.flaggedAt?.epochSeconds))
            """,
            constraint: "passkey"
        )
    }

    func passkey(id: String) async throws -> PasskeyRecord? {
        try await first("SELECT \(unsafeRaw: Self.passkeyColumns) FROM gh_passkeys WHERE id = \(bind: id)").map(Self.passkey)
    }

    func passkeys(userID: String) async throws -> [PasskeyRecord] {
        try await all("SELECT \(unsafeRaw: Self.passkeyColumns) FROM gh_passkeys WHERE user_id = \(bind: userID) ORDER BY created_at, id")
            .map(Self.passkey)
    }

    func recordPasskeyUse(id: String, previousCount: Int64, signCount: Int64, backedUp: Bool, at: Date) async throws -> Bool {
        try await first(
            """
            UPDATE gh_passkeys SET sign_count = \(bind: signCount), backed_up = \(bind: backedUp), last_used_at = \(bind: at.epochSeconds)
            WHERE id = \(bind: id) AND sign_count = \(bind: previousCount) AND flagged_at IS NULL RETURNING id
            """
        ) != nil
    }

    func flagPasskey(id: String, at: Date) async throws {
        try await db.raw("UPDATE gh_passkeys SET flagged_at = \(bind: at.epochSeconds) WHERE id = \(bind: id) AND flagged_at IS NULL").run()
    }

    func deletePasskey(id: String, userID: String) async throws -> Bool {
        try await first("DELETE FROM gh_passkeys WHERE id = \(bind: id) AND user_id = \(bind: userID) RETURNING id") != nil
    }

    func deletePasskeys(userID: String) async throws {
        try await db.raw("DELETE FROM gh_passkeys WHERE user_id = \(bind: userID)").run()
    }

    private static func passkey(_ row: any SQLRow) throws -> PasskeyRecord {
        PasskeyRecord(
            id: try row.string("id"),
            userID: try row.string("user_id"),
            publicKey: try row.string("public_key"),
            signCount: Int64(try row.int("sign_count")),
            transports: try row.string("transports").split(separator: ",").map(String.init),
            backupEligible: try row.bool("backup_eligible"),
            backedUp: try row.bool("backed_up"),
            name: try row.string("name"),
            createdAt: try row.date("created_at"),
            lastUsedAt: try row.optionalDate("last_used_at"),
            flaggedAt: try row.optionalDate("flagged_at")
        )
    }
}

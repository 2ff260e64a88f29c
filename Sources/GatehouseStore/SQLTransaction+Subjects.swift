import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    func subjectRevocation(sub: String) async throws -> SubjectRevocation? {
        try await first("SELECT sub, revoked_before, deleted_at FROM gh_subject_revocations WHERE sub = \(bind: sub)").map { row in
            SubjectRevocation(
                sub: try row.string("sub"),
                revokedBefore: try row.date("revoked_before"),
                deletedAt: try row.optionalDate("deleted_at")
            )
        }
    }

    func recordSubjectRevocation(sub: String, revokedBefore: Date, deletedAt: Date?) async throws {
        let before = revokedBefore.epochSeconds
        try await db.raw(
            """
            INSERT INTO gh_subject_revocations (sub, revoked_before, deleted_at) VALUES (\(bind: sub), \(bind: before), \(bind: deletedAt?.epochSeconds))
            ON CONFLICT (sub) DO UPDATE SET
                revoked_before = CASE WHEN gh_subject_revocations.revoked_before > \(bind: before) THEN gh_subject_revocations.revoked_before ELSE \(bind: before) END,
                deleted_at = COALESCE(gh_subject_revocations.deleted_at, \(bind: deletedAt?.epochSeconds))
            """
        ).run()
    }

    func acquireLease(name: String, holder: String, until: Date, now: Date) async throws -> Bool {
        try await first(
            """
            INSERT INTO gh_leases (name, holder, expires_at) VALUES (\(bind: name), \(bind: holder), \(bind: until.epochSeconds))
            ON CONFLICT (name) DO UPDATE SET holder = \(bind: holder), expires_at = \(bind: until.epochSeconds)
            WHERE gh_leases.expires_at <= \(bind: now.epochSeconds) OR gh_leases.holder = \(bind: holder)
            RETURNING name
            """
        ) != nil
    }

    func releaseLease(name: String, holder: String) async throws {
        try await db.raw("DELETE FROM gh_leases WHERE name = \(bind: name) AND holder = \(bind: holder)").run()
    }

    func cognitoPassword(sub: String) async throws -> CognitoPasswordRecord? {
        try await first("SELECT sub, sealed_password, created_at FROM gh_cognito_passwords WHERE sub = \(bind: sub)").map { row in
            CognitoPasswordRecord(
                sub: try row.string("sub"),
                sealedPassword: try row.string("sealed_password"),
                createdAt: try row.date("created_at")
            )
        }
    }

    func upsertCognitoPassword(_ record: CognitoPasswordRecord) async throws {
        try await db.raw(
            """
            INSERT INTO gh_cognito_passwords (sub, sealed_password, created_at)
            VALUES (\(bind: record.sub), \(bind: record.sealedPassword), \(bind: record.createdAt.epochSeconds))
            ON CONFLICT (sub) DO UPDATE SET sealed_password = excluded.sealed_password, created_at = excluded.created_at
            """
        ).run()
    }

    func deleteCognitoPassword(sub: String) async throws {
        try await db.raw("DELETE FROM gh_cognito_passwords WHERE sub = \(bind: sub)").run()
    }
}

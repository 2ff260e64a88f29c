import Foundation
import Logging

extension EmbeddedUserPool: SessionListStrategy {
    /// The caller's sessions that still work (``SessionListStrategy``): not ended, within the absolute
    /// session lifetime, and used (signed in or refreshed) within the refresh-token lifetime.
    public func liveSessions(principal: Principal) async throws -> [SessionRecord] {
        let now = clock.now()
        let sessionLifetime = settings.sessionLifetime
        let refreshLifetime = settings.refreshTokenLifetime
        let sessions = try await store.read { try await $0.activeSessions(userID: principal.sub) }
        return sessions.filter { session in
            session.authTime.addingTimeInterval(sessionLifetime) > now
                && (session.lastRefreshedAt ?? session.createdAt).addingTimeInterval(refreshLifetime) > now
        }
    }

    /// Ends one of the caller's sessions, checked to be theirs in the transaction that ends it
    /// (``SessionListStrategy``).
    public func endOwnSession(id: String, principal: Principal, logger: Logger) async throws -> [DomainEvent] {
        let now = clock.now()
        let sub = principal.sub
        let origin = AuditOrigin.current
        let ended = try await store.write { tx in
            guard let session = try await tx.session(id: id), session.userID == sub, session.isActive,
                try await tx.revokeSession(id: id, at: now, reason: .endedByUser)
            else { return false }
            try await audit(.make(.sessionEnded, userID: sub, detail: id, origin: origin, at: now, random: random), in: tx)
            return true
        }
        guard ended else { throw AccountSessions.notFound }
        logger.info(
            "session ended from the session list",
            metadata: ["user.sub": .string(sub), "session.id": .string(id), "session.current": .stringConvertible(id == principal.sessionID)]
        )
        return [.sessionsEnded(ids: [id])]
    }
}

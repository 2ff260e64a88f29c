import Foundation
import Logging

extension EmbeddedUserPool: HostedSessionStrategy {
    /// A new refresh-token chain in an active, unexpired session of a confirmed user (``HostedSessionStrategy``).
    /// The custom-claims hook is asked before the write (a denial leaves the session as it was).
    public func continueSession(id: String, nonce: String?, logger: Logger) async throws -> AuthTokens {
        var extra = ExtraClaims.none
        if claimsHook != nil {
            let found = try await store.read { tx -> (SessionRecord, UserRecord)? in
                guard let session = try await tx.session(id: id), let user = try await tx.user(id: session.userID) else { return nil }
                return (session, user)
            }
            if let (session, user) = found { extra = try await issuer.hookClaims(for: user, kind: .signIn, method: session.method) }
        }
        let start = issuer.prepare(method: "", client: nil)
        let lifetime = settings.sessionLifetime
        let refreshLifetime = settings.refreshTokenLifetime
        let found: (SessionRecord, UserRecord)? = try await store.write { tx in
            guard let session = try await tx.session(id: id), session.isActive, session.authTime.addingTimeInterval(lifetime) > start.at,
                let user = try await tx.user(id: session.userID), user.confirmed
            else { return nil }
            try await tx.insertRefreshToken(
                RefreshTokenRecord(
                    tokenHash: start.refreshTokenHash,
                    sessionID: session.id,
                    userID: user.id,
                    createdAt: start.at,
                    expiresAt: min(start.at.addingTimeInterval(refreshLifetime), session.authTime.addingTimeInterval(lifetime))
                )
            )
            // A new chain is a use of the session: the session list counts it from now.
            try await tx.recordRefresh(sessionID: session.id, at: start.at, userAgent: nil, clientAddress: nil)
            return (session, user)
        }
        guard let (session, user) = found else {
            throw GatehouseError(.invalidGrant, "The sign-in this code belongs to has ended. Sign in again.", cause: "session \(id) not active")
        }
        logger.info("tokens issued in the hosted session", metadata: ["session.id": .string(session.id), "user.sub": .string(user.id)])
        return try issuer.issueTokens(start, session: session, user: user, nonce: nonce, isNewUser: nil, extra: extra)
    }

    /// Whether the session is active, within its lifetime, and its user confirmed (``HostedSessionStrategy``).
    public func isSessionActive(id: String) async throws -> Bool {
        let now = clock.now()
        let lifetime = settings.sessionLifetime
        return try await store.read { tx in
            guard let session = try await tx.session(id: id), session.isActive, session.authTime.addingTimeInterval(lifetime) > now else {
                return false
            }
            return try await tx.user(id: session.userID)?.confirmed == true
        }
    }

    /// Ends the session (``HostedSessionStrategy``).
    public func endSession(id: String, reason: SessionRecord.EndReason, logger: Logger) async throws -> [DomainEvent] {
        let (now, origin) = (clock.now(), AuditOrigin.current)
        let ended = try await store.write { tx in
            guard let session = try await tx.session(id: id), try await tx.revokeSession(id: id, at: now, reason: reason) else { return false }
            let event: AuditEvent = reason == .signOut ? .signOut : .sessionEnded
            try await audit(.make(event, userID: session.userID, detail: id, origin: origin, at: now, random: random), in: tx)
            return true
        }
        guard ended else { return [] }
        logger.info("session ended", metadata: ["session.id": .string(id), "reason": .string(reason.rawValue)])
        return [.sessionsEnded(ids: [id])]
    }
}

import Foundation
import Logging

extension EmbeddedUserPool {
    /// Email and password sign-in. Unknown addresses and wrong passwords get the same answer after the
    /// same work (a dummy hash); ``PasswordAuthentication`` counts both against the same limits. A
    /// verified password made with weaker hash parameters is rehashed, and one without an SRP verifier
    /// (accounts from before verifiers, or whose verifier belongs to another pool id) gets one.
    /// - Parameters:
    ///   - email: The address.
    ///   - password: The presented password, checked by ``checkPresentedPassword(_:)``.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The verified user, for ``SessionIssuer`` to start the session of.
    /// - Throws: `invalid_credentials`, `user_not_confirmed`.
    public func verifyPassword(email: EmailAddress, password: String, client: ClientInfo, logger: Logger) async throws -> SignInProof {
        let user = try await store.read { try await $0.user(emailKey: email.key) }
        var verified = false
        if let hash = user?.passwordHash {
            verified = try await hasher.verify(password, against: hash, lane: client.rateLimitSubject)
        } else {
            try await hasher.verifyDummy(password, lane: client.rateLimitSubject)
        }
        guard verified, let user else {
            logger.info("sign-in failed")
            throw GatehouseError.invalidCredentials
        }
        guard user.confirmed else { throw GatehouseError.userNotConfirmed }
        return .subject(
            VerifiedSubject(user: try await upgradingHash(of: user, password: password, client: client, logger: logger), method: "password")
        )
    }

    /// Upgrades a hash made with weaker parameters, and makes the SRP verifier of a password that has none.
    private func upgradingHash(of signedIn: UserRecord, password: String, client: ClientInfo, logger: Logger) async throws -> UserRecord {
        let rehash = signedIn.passwordHash.map { hasher.needsRehash($0) } ?? false
        let missingVerifier = srpVerifiers.map { $0.isAvailable && !$0.hasCurrent(signedIn) } ?? false
        guard let hash = signedIn.passwordHash, rehash || missingVerifier else { return signedIn }
        let newHash = rehash ? try await hasher.hash(password, lane: client.rateLimitSubject) : hash
        let verifier = srpVerifier(password, userID: signedIn.id, passwordHash: newHash)
        let now = clock.now()
        let user = try await store.write { tx in
            guard var current = try await tx.user(id: signedIn.id), current.passwordHash == hash else { return signedIn }
            current.passwordHash = newHash
            current.srpVerifier = verifier
            current.updatedAt = now
            try await tx.updateUser(current)
            return current
        }
        if rehash { logger.info("password hash upgraded to the current parameters", metadata: ["user.sub": .string(user.id)]) }
        return user
    }

    enum RefreshOutcome: Sendable {
        case rotated(UserRecord, SessionRecord, successor: String)
        case reused(sessionID: String)
        /// The session reached its absolute lifetime and was ended.
        case lifetimeOver(sessionID: String)
        /// Not one of ours (well-formed but unknown): counted against the client.
        case unknown
        case invalid(String)
        case lostRace
    }

    /// Exchanges a refresh token for new tokens and rotates it. A rotated-out token presented again ends
    /// the whole session, unless it comes back within the grace window while its successor is still
    /// unused: then it gets the same successor again (a client that lost the response can retry).
    /// A session ends ``PoolSettings/sessionLifetime`` after its sign-in, however often it rotated.
    /// Well-formed tokens that are not ours count against the client's address; past the limit they
    /// are answered 429 (a client's valid tokens keep working). The custom-claims hook is asked before
    /// the rotation, so its denial leaves the presented token as it was.
    /// - Parameters:
    ///   - refreshToken: The presented refresh token.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: New tokens, or a refusal carrying the session it ended.
    /// - Throws: `invalid_grant`, `too_many_requests`.
    public func refresh(refreshToken: String, client: ClientInfo, logger: Logger) async throws -> RefreshResult {
        guard let token = RefreshTokenCodec.validate(refreshToken) else { throw GatehouseError.invalidGrant }
        let hash = RefreshTokenCodec.hash(token)
        let successor = RefreshTokenCodec.successor(of: token, key: refreshKey)
        let successorHash = RefreshTokenCodec.hash(successor)
        let extra = try await refreshClaims(hash: hash)
        var outcome = RefreshOutcome.lostRace
        for _ in 0..<3 {
            outcome = try await rotate(hash: hash, successor: successor, successorHash: successorHash, client: client)
            if case .lostRace = outcome { continue }
            break
        }
        switch outcome {
        case .rotated(let user, let session, let successor):
            let issued = try tokens.issue(subject: TokenSubject(user), session: session, nonce: nil, extra: extra)
            return .issued(
                AuthTokens(
                    idToken: issued.idToken,
                    accessToken: issued.accessToken,
                    refreshToken: successor,
                    expiresIn: issued.expiresIn,
                    issuedTo: issued.principal
                )
            )
        case .reused(let sessionID):
            logger.warning("refresh token reused after rotation; the session was ended", metadata: ["session.id": .string(sessionID)])
            return .refused(ended: [.sessionsEnded(ids: [sessionID])])
        case .lifetimeOver(let sessionID):
            logger.info("session reached its lifetime; ended", metadata: ["session.id": .string(sessionID)])
            return .refused(ended: [.sessionsEnded(ids: [sessionID])])
        case .unknown:
            return .unknownToken
        case .invalid(let reason):
            logger.info("refresh refused", metadata: ["reason": .string(reason)])
            throw GatehouseError.invalidGrant
        case .lostRace:
            throw GatehouseError.internalError(cause: "refresh token rotation kept losing races")
        }
    }

    /// The hook's claims for the user a refresh token belongs to (none for a token that is not ours:
    /// the rotation refuses it anyway).
    private func refreshClaims(hash: String) async throws -> ExtraClaims {
        guard claimsHook != nil else { return .none }
        let found = try await store.read { tx -> (UserRecord, SessionRecord)? in
            guard let record = try await tx.refreshToken(hash: hash), let session = try await tx.session(id: record.sessionID), session.isActive,
                let user = try await tx.user(id: record.userID)
            else { return nil }
            return (user, session)
        }
        guard let (user, session) = found else { return .none }
        return try await issuer.hookClaims(for: user, kind: .refresh, method: session.method)
    }

    private func rotate(hash: String, successor: String, successorHash: String, client: ClientInfo) async throws -> RefreshOutcome {
        let now = clock.now()
        let lifetime = settings.refreshTokenLifetime
        let sessionLifetime = settings.sessionLifetime
        let grace = settings.refreshReuseGrace
        let origin = AuditOrigin.current
        let (userAgent, clientAddress) = (client.userAgent, client.coarseAddress)
        return try await store.write { tx in
            guard let record = try await tx.refreshToken(hash: hash) else { return .unknown }
            guard let session = try await tx.session(id: record.sessionID), session.isActive else { return .invalid("session ended") }
            let sessionEnd = session.authTime.addingTimeInterval(sessionLifetime)
            guard sessionEnd > now else {
                try await tx.revokeSession(id: session.id, at: now, reason: .lifetimeOver)
                return .lifetimeOver(sessionID: session.id)
            }
            guard let user = try await tx.user(id: record.userID) else { return .invalid("user deleted") }
            if let rotatedAt = record.rotatedAt {
                if now.timeIntervalSince(rotatedAt) <= grace, record.successorHash == successorHash,
                    let next = try await tx.refreshToken(hash: successorHash), next.rotatedAt == nil
                {
                    try await tx.recordRefresh(sessionID: session.id, at: now, userAgent: userAgent, clientAddress: clientAddress)
                    return .rotated(user, session, successor: successor)
                }
                try await tx.revokeSession(id: session.id, at: now, reason: .refreshReuse)
                try await audit(.make(.refreshReuse, userID: user.id, detail: session.id, origin: origin, at: now, random: random), in: tx)
                return .reused(sessionID: session.id)
            }
            guard record.expiresAt > now else { return .invalid("token expired") }
            guard try await tx.markRefreshTokenRotated(hash: hash, successorHash: successorHash, at: now) else { return .lostRace }
            try await tx.insertRefreshToken(
                RefreshTokenRecord(
                    tokenHash: successorHash,
                    sessionID: session.id,
                    userID: user.id,
                    createdAt: now,
                    expiresAt: min(now.addingTimeInterval(lifetime), sessionEnd)
                )
            )
            // The session list shows when and from where the session was last used.
            try await tx.recordRefresh(sessionID: session.id, at: now, userAgent: userAgent, clientAddress: clientAddress)
            return .rotated(user, session, successor: successor)
        }
    }

    /// Ends the session a refresh token belongs to. Unknown tokens are accepted silently (as RFC 7009
    /// revocation does): the caller's goal, a session that no longer works, holds either way.
    /// - Parameters:
    ///   - refreshToken: The presented refresh token.
    ///   - logger: The request's logger.
    /// - Returns: The session ended, if any.
    /// - Throws: A store error.
    public func signOut(refreshToken: String, logger: Logger) async throws -> [DomainEvent] {
        guard let token = RefreshTokenCodec.validate(refreshToken) else { return [] }
        let hash = RefreshTokenCodec.hash(token)
        let now = clock.now()
        let origin = AuditOrigin.current
        let ended: String? = try await store.write { tx in
            guard let record = try await tx.refreshToken(hash: hash),
                try await tx.revokeSession(id: record.sessionID, at: now, reason: .signOut)
            else { return nil }
            try await audit(.make(.signOut, userID: record.userID, detail: record.sessionID, origin: origin, at: now, random: random), in: tx)
            return record.sessionID
        }
        guard let ended else { return [] }
        logger.info("signed out", metadata: ["session.id": .string(ended)])
        return [.sessionsEnded(ids: [ended])]
    }

    /// Ends every session of the caller.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: The sessions ended.
    /// - Throws: A store error.
    public func signOutEverywhere(principal: Principal, logger: Logger) async throws -> [DomainEvent] {
        let now = clock.now()
        let origin = AuditOrigin.current
        let ended = try await store.write { tx in
            let ended = try await tx.revokeSessions(userID: principal.sub, except: nil, at: now, reason: .signOutAll)
            try await audit(.make(.signOutAll, userID: principal.sub, origin: origin, at: now, random: random), in: tx)
            return ended
        }
        logger.info("signed out everywhere", metadata: ["user.sub": .string(principal.sub), "sessions": .stringConvertible(ended.count)])
        return [.sessionsEnded(ids: ended)]
    }
}

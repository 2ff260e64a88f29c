import Foundation
import Logging

extension EmbeddedUserPool {
    /// Verifies one of our access tokens; its `origin_jti` names the session.
    /// - Parameter bearer: The access token.
    /// - Returns: The checked claims and their session.
    /// - Throws: `unauthorized`.
    public func verifyBearer(_ bearer: String) async throws -> VerifiedBearer {
        let claims = try tokens.verifyAccessToken(bearer)
        guard let sessionID = claims.originJTI else { throw GatehouseError.unauthorized(cause: "no origin_jti") }
        return VerifiedBearer(claims: claims, sessionID: sessionID, livenessKey: sessionID)
    }

    /// The pool user's address and name.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: The seed.
    /// - Throws: `unauthorized` when the user is gone.
    public func profileSeed(for principal: Principal, logger: Logger) async throws -> ProfileSeed {
        guard let user = try await store.read({ try await $0.user(id: principal.sub) }) else {
            throw GatehouseError.unauthorized(cause: "user no longer exists")
        }
        return ProfileSeed(email: user.email, emailVerified: user.emailVerified, name: user.name, phone: user.phone)
    }

    /// The session's sign-in method and time and the account's identities (a user with a password
    /// has a password identity).
    /// - Parameter principal: The caller.
    /// - Returns: The facts.
    /// - Throws: `unauthorized` when the session or the user is gone.
    public func stepUpFacts(principal: Principal) async throws -> StepUpFacts? {
        try await store.read { tx in
            guard let session = try await tx.session(id: principal.sessionID), session.userID == principal.sub,
                let user = try await tx.user(id: principal.sub)
            else { throw GatehouseError.unauthorized(cause: "session or user gone") }
            var methods = Set(try await tx.identities(userID: user.id).map { SignInMethod(identity: $0.provider) })
            if user.passwordHash != nil { methods.insert(.password) }
            return StepUpFacts(
                session: SignInMethod(session: session.method),
                authenticatedAt: session.authTime,
                account: methods
            )
        }
    }

    /// The pool keeps nothing outside the store.
    /// - Parameters:
    ///   - principal: The caller (unused).
    ///   - logger: The request's logger (unused).
    /// - Returns: `false`.
    public func deleteUpstreamAccount(principal: Principal, logger: Logger) async throws -> Bool { false }

    /// The user's audit row (with the address, read before the row goes), codes, passkeys, second
    /// factor and user row, in the deletion's transaction.
    /// - Parameters:
    ///   - sub: The user.
    ///   - origin: Who deletes, from where.
    ///   - tx: The deletion's transaction.
    /// - Throws: A store error.
    public func removeAccountRecords(of sub: String, origin: AuditOrigin, in tx: any StoreTransaction) async throws {
        let now = clock.now()
        let email = try await tx.user(id: sub)?.email
        try await audit(.make(.accountDeleted, userID: sub, origin: origin, at: now, random: random), email: email, in: tx)
        try await tx.deleteCodes(userID: sub)
        try await tx.deletePasskeys(userID: sub)
        try await tx.deleteMFA(userID: sub)
        try await tx.deleteUser(id: sub)
    }

    /// The pool user carries the name into new ID tokens.
    /// - Parameters:
    ///   - name: The new name, `nil` to clear it.
    ///   - sub: The user.
    ///   - now: The change's time.
    ///   - tx: The profile update's transaction.
    /// - Throws: A store error.
    public func recordDisplayName(_ name: String?, sub: String, at now: Date, in tx: any StoreTransaction) async throws {
        guard var user = try await tx.user(id: sub) else { return }
        user.name = name
        user.updatedAt = now
        try await tx.updateUser(user)
    }

    /// The store answers.
    /// - Throws: The store's error.
    public func checkReady() async throws {
        try await store.ping()
    }
}

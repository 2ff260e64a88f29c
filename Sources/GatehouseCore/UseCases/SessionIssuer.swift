import Foundation
import GatehouseInfrastructure
import Logging

/// Starts the embedded pool's sessions: given a subject a strategy verified (``VerifiedSubject``), it
/// asks the custom-claims hook, applies the gates every sign-in passes (a disabled account gets
/// `user_disabled`, an account with a confirmed authenticator app `mfa_required` and a sealed
/// challenge, unless the method is a passkey or already carries the second factor), records the
/// session, its first refresh token and its audit row in one transaction, and signs the tokens.
///
/// The use cases call ``start(_:client:nonce:logger:)`` with what a strategy proved. Social and phone
/// sign-in find (or create) their user in the transaction that records the session, so the pool
/// records those with ``record(_:for:in:)`` inside its own write; the gates are the same code either way.
public struct SessionIssuer: Sendable {
    let settings: PoolSettings
    let store: any GatehouseStore
    let tokens: TokenService
    /// Queues the sign-in's webhook deliveries in the session's transaction.
    let deliveries: DeliveryEnqueuer
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource
    /// Asks the custom-claims hook before tokens are issued; `nil` when none is configured.
    let claimsHook: ClaimsHookGate?

    /// Creates the issuer.
    /// - Parameters:
    ///   - settings: The refresh-token and session lifetimes.
    ///   - store: Where sessions and refresh tokens are recorded.
    ///   - tokens: Signs the ID and access tokens.
    ///   - deliveries: Queues the sign-in's webhook deliveries.
    ///   - box: Seals the second-factor challenge.
    ///   - clock: The time source.
    ///   - random: Session ids and refresh tokens.
    ///   - claimsHook: The custom-claims hook; `nil` for none.
    public init(
        settings: PoolSettings,
        store: any GatehouseStore,
        tokens: TokenService,
        deliveries: DeliveryEnqueuer,
        box: SecretBox,
        clock: any TimeSource,
        random: any RandomSource,
        claimsHook: ClaimsHookGate?
    ) {
        self.settings = settings
        self.store = store
        self.tokens = tokens
        self.deliveries = deliveries
        self.box = box
        self.clock = clock
        self.random = random
        self.claimsHook = claimsHook
    }

    /// Starts a session for a verified subject and issues its first tokens. The hook is asked first,
    /// so its denial writes nothing; the gates run in the session's transaction, so a refusal rolls it back.
    /// - Parameters:
    ///   - subject: Who signs in, and how.
    ///   - client: Who asks (its device and coarse address go into the session list).
    ///   - nonce: The client's nonce for the ID token.
    ///   - logger: The request's logger.
    /// - Returns: The tokens, with the session's id.
    /// - Throws: `user_disabled`, `mfa_required`, the hook's denial, a store error.
    public func start(_ subject: VerifiedSubject, client: ClientInfo, nonce: String? = nil, logger: Logger) async throws -> AuthTokens {
        let user = subject.user
        let extra = try await hookClaims(for: user, kind: .signIn, method: subject.method)
        let start = prepare(method: subject.method, client: client)
        let session = try await store.write { tx in try await record(start, for: user.id, in: tx) }
        let issued = try issueTokens(start, session: session, user: user, nonce: nonce, isNewUser: subject.isNewUser, extra: extra)
        logger.info("signed in", metadata: ["user.sub": .string(user.id), "auth.method": .string(subject.method)])
        return issued
    }

    /// The issuer a pool-only use case was given (it is `nil` only where its strategy is, with Cognito).
    static func required(_ issuer: SessionIssuer?) throws -> SessionIssuer {
        guard let issuer else { throw GatehouseError.internalError(cause: "a local subject without a session issuer") }
        return issuer
    }

    /// Draws a session's ids and first refresh token, and notes the client's device and coarse address
    /// for the user's session list (`nil` where no session row is written, as the hosted UI's next chain).
    func prepare(method: String, client: ClientInfo?) -> SessionStart {
        let now = clock.now()
        let refreshToken = RefreshTokenCodec.generate(random)
        return SessionStart(
            sessionID: random.uuidV7(at: now),
            method: method,
            refreshToken: refreshToken,
            refreshTokenHash: RefreshTokenCodec.hash(refreshToken),
            at: now,
            userAgent: client?.userAgent,
            clientAddress: client?.coarseAddress,
            origin: AuditOrigin.current
        )
    }

    /// Stores the session, its first refresh token and its audit row for `userID` inside `tx`, after
    /// the gates: a disabled user gets `user_disabled`, a user with a confirmed second factor
    /// `mfa_required`, and `tx` rolls back.
    func record(_ start: SessionStart, for userID: String, in tx: any StoreTransaction) async throws -> SessionRecord {
        try await record(start, for: userID, disabled: try await tx.user(id: userID)?.disabledAt != nil, in: tx)
    }

    /// ``record(_:for:in:)`` for a user read in `tx` itself (social sign-in finds its user in the
    /// transaction that records the session): the disabled flag of that read is the one checked, so the
    /// row is not read twice.
    func record(_ start: SessionStart, for user: UserRecord, in tx: any StoreTransaction) async throws -> SessionRecord {
        try await record(start, for: user.id, disabled: user.disabledAt != nil, in: tx)
    }

    private func record(_ start: SessionStart, for userID: String, disabled: Bool, in tx: any StoreTransaction) async throws -> SessionRecord {
        if disabled {
            throw GatehouseError(.userDisabled, "This account is disabled.", cause: "sign-in of disabled user \(userID)")
        }
        try await requireSecondFactor(start, userID: userID, in: tx)
        let entry = AuditEntry.make(.signIn, userID: userID, detail: start.method, origin: start.origin, at: start.at, random: random)
        try await deliveries.audit(entry, in: tx)
        let session = SessionRecord(
            id: start.sessionID,
            userID: userID,
            method: start.method,
            authTime: start.at,
            createdAt: start.at,
            userAgent: start.userAgent,
            clientAddress: start.clientAddress
        )
        try await tx.insertSession(session)
        try await tx.insertRefreshToken(
            RefreshTokenRecord(
                tokenHash: start.refreshTokenHash,
                sessionID: session.id,
                userID: userID,
                createdAt: start.at,
                expiresAt: start.at.addingTimeInterval(min(settings.refreshTokenLifetime, settings.sessionLifetime))
            )
        )
        return session
    }

    /// The one second-factor gate: a user with a confirmed authenticator app gets no session from a
    /// first factor alone, but a sealed challenge to redeem with a code. A passkey (possession and user
    /// verification in one) and a session the second factor completed (`+otp`) pass.
    private func requireSecondFactor(_ start: SessionStart, userID: String, in tx: any StoreTransaction) async throws {
        guard start.method != "passkey", !start.method.hasSuffix("+otp"),
            try await tx.totp(userID: userID)?.confirmedAt != nil
        else { return }
        let challenge = MFAChallenge(
            userID: userID,
            method: start.method,
            expiresAt: start.at.addingTimeInterval(MFAChallenge.lifetime),
            id: random.uuid()
        )
        throw GatehouseError.mfaRequired(token: try challenge.seal(with: box))
    }

    /// Signs the ID and access tokens of a recorded session, with the hook's `extra` claims.
    func issueTokens(
        _ start: SessionStart,
        session: SessionRecord,
        user: UserRecord,
        nonce: String?,
        isNewUser: Bool?,
        extra: ExtraClaims
    ) throws -> AuthTokens {
        let issued = try tokens.issue(subject: TokenSubject(user), session: session, nonce: nonce, extra: extra)
        return AuthTokens(
            idToken: issued.idToken,
            accessToken: issued.accessToken,
            refreshToken: start.refreshToken,
            expiresIn: issued.expiresIn,
            isNewUser: isNewUser,
            sessionID: session.id,
            issuedTo: issued.principal
        )
    }
}

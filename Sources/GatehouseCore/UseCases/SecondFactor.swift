import Foundation
import GatehouseInfrastructure
import Logging

/// A second factor on the embedded pool: an authenticator app (TOTP, RFC 6238) with ten single-use
/// recovery codes. Enrolment is confirmed by a first code; from then on every sign-in of the account but
/// a passkey answers `mfa_required` with a sealed challenge, which ``verify(token:code:client:logger:)``
/// redeems with a code. A code is accepted once (a replay inside its window is refused), wrong codes count
/// in the account's sign-in throttle, and removing the app or new recovery codes need a current code.
public struct SecondFactor: Sendable {
    let strategy: (any SecondFactorStrategy)?
    /// Starts the session a second factor completes.
    let issuer: SessionIssuer?
    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource
    let limiter: RateLimiter
    let events: any AuthEventObserver
    /// The issuer name authenticator apps show (the app's name).
    let issuerName: String

    static let recoveryCodeCount = 10
    static let recoveryAlphabet = Array("abcdefghjkmnpqrstuvwxyz23456789")

    /// Creates the use case.
    /// - Parameters:
    ///   - strategy: The embedded pool; `nil` (Cognito) turns it off.
    ///   - issuer: The embedded pool's session issuer (`nil` with Cognito).
    ///   - store: Where secrets, steps and codes are kept.
    ///   - box: Seals secrets and challenges; hashes recovery codes.
    ///   - clock: The time source.
    ///   - random: Makes secrets and recovery codes.
    ///   - limiter: The account's sign-in throttle counts wrong codes.
    ///   - events: Where sign-in outcomes are counted (`mfa`).
    ///   - issuerName: The name authenticator apps show.
    public init(
        strategy: (any SecondFactorStrategy)?,
        issuer: SessionIssuer?,
        store: any GatehouseStore,
        box: SecretBox,
        clock: any TimeSource,
        random: any RandomSource,
        limiter: RateLimiter,
        events: any AuthEventObserver,
        issuerName: String
    ) {
        self.strategy = strategy
        self.issuer = issuer
        self.store = store
        self.box = box
        self.clock = clock
        self.random = random
        self.limiter = limiter
        self.events = events
        self.issuerName = issuerName
    }

    /// What enrolment shows the user once: the secret and the URI an app scans.
    public struct Enrolment: Sendable, Equatable {
        /// The secret, base32 (for typing it in).
        public var secret: String
        /// The `otpauth://totp/…` URI (for the QR code).
        public var uri: String
    }

    /// Where a user's second factor stands, for their account page.
    public struct Status: Sendable, Equatable {
        /// Whether a confirmed authenticator app guards the account's sign-ins.
        public var enabled: Bool
        /// When it was confirmed.
        public var enabledAt: Date?
        /// How many recovery codes are left unused (0 without an app).
        public var recoveryCodesLeft: Int
    }

    /// Whether the provider offers a second factor (the embedded pool does; Cognito keeps its own).
    public var isAvailable: Bool { strategy != nil }

    func enabled() throws -> any SecondFactorStrategy {
        guard let strategy else {
            throw GatehouseError(.providerDisabled, "A second factor is managed by the identity provider here.", cause: "Cognito mode")
        }
        return strategy
    }

    func bucket(_ userID: String) -> RateLimiter.Bucket { limiter.bucket(limiter.settings.signInPerAccount, "mfa." + userID) }

    func secret(of record: TOTPRecord) throws -> [UInt8] {
        try box.open(record.sealedSecret, context: "totp:" + record.userID)
    }

    func recoveryHash(_ code: String, userID: String) -> String {
        let normalized = code.lowercased().filter { $0 != "-" && $0 != " " }
        return box.keyedHash("recovery-code", userID, normalized)
    }

    /// Checks a current code and accepts its step once; a wrong or replayed code is `code_mismatch`,
    /// counted in the account's throttle.
    func acceptCode(_ code: String, record: TOTPRecord, confirming: Bool) async throws {
        let secret = try secret(of: record)
        let now = clock.now()
        let origin = AuditOrigin.current
        try await limiter.guarding([bucket(record.userID)], resetOnSuccess: [bucket(record.userID)], failureCodes: [.codeMismatch]) {
            guard let step = TOTP.matchingStep(code.filter { $0 != " " }, secret: secret, at: now) else { throw GatehouseError.codeMismatch }
            let accepted = try await store.write { tx in
                let accepted = try await tx.acceptTOTPStep(userID: record.userID, step: step, confirmAt: confirming ? now : nil)
                if accepted, confirming {
                    try await tx.appendAudit(.make(.mfaEnabled, userID: record.userID, origin: origin, at: now, random: random))
                }
                return accepted
            }
            guard accepted else { throw GatehouseError(.codeMismatch, GatehouseError.codeMismatch.message, cause: "TOTP code replayed") }
        }
    }

    func newRecoveryCodes(for userID: String, audit event: AuditEvent? = nil) async throws -> [String] {
        let codes = (0..<Self.recoveryCodeCount).map { _ in
            let chars = random.bytes(10).map { Self.recoveryAlphabet[Int($0) % Self.recoveryAlphabet.count] }
            return String(chars[0..<5]) + "-" + String(chars[5...])
        }
        let hashes = codes.map { recoveryHash($0, userID: userID) }
        let now = clock.now()
        let origin = AuditOrigin.current
        try await store.write { tx in
            try await tx.replaceRecoveryCodes(userID: userID, hashes: hashes, at: now)
            if let event { try await tx.appendAudit(.make(event, userID: userID, origin: origin, at: now, random: random)) }
        }
        return codes
    }

    // MARK: enrolment

    /// Where the caller's second factor stands. A pending enrolment (not confirmed) is not an app.
    /// - Parameter principal: The signed-in caller.
    /// - Returns: Whether an app is confirmed, since when, and the unused recovery codes.
    /// - Throws: `provider_disabled` with Cognito.
    public func status(for principal: Principal) async throws -> Status {
        _ = try enabled()
        return try await store.read { tx in
            guard let record = try await tx.totp(userID: principal.sub), let confirmed = record.confirmedAt else {
                return Status(enabled: false, enabledAt: nil, recoveryCodesLeft: 0)
            }
            return Status(enabled: true, enabledAt: confirmed, recoveryCodesLeft: try await tx.unusedRecoveryCodeCount(userID: principal.sub))
        }
    }

    /// Starts enrolment: a new secret (replacing a pending one). Refused while an app is confirmed.
    /// - Parameter principal: The signed-in caller.
    /// - Returns: The secret and its URI, shown once.
    /// - Throws: `conflict` when an app is already confirmed.
    public func enrol(for principal: Principal) async throws -> Enrolment {
        let strategy = try enabled()
        guard let user = try await strategy.secondFactorUser(id: principal.sub) else { throw GatehouseError.unauthorized(cause: "user gone") }
        if try await store.read({ try await $0.totp(userID: user.id) })?.confirmedAt != nil {
            throw GatehouseError(.conflict, "An authenticator app is set up already; remove it first (with a current code).")
        }
        let secret = TOTP.newSecret(random)
        let record = TOTPRecord(
            userID: user.id,
            sealedSecret: try box.seal(secret, context: "totp:" + user.id),
            confirmedAt: nil,
            lastStep: -1,
            createdAt: clock.now()
        )
        try await store.write { tx in try await tx.putTOTP(record) }
        return Enrolment(secret: TOTP.base32(secret), uri: TOTP.uri(secret: secret, issuer: issuerName, account: user.email ?? user.phone ?? user.id))
    }

    /// Confirms enrolment with a first code; from now on sign-ins ask for a code.
    /// - Parameters:
    ///   - principal: The signed-in caller.
    ///   - code: The app's current code.
    ///   - logger: The request's logger.
    /// - Returns: Ten single-use recovery codes, shown once (only their hashes are kept).
    /// - Throws: `not_found` without a pending enrolment, `code_mismatch`, `too_many_requests`.
    public func confirm(for principal: Principal, code: String, logger: Logger) async throws -> [String] {
        _ = try enabled()
        guard let record = try await store.read({ try await $0.totp(userID: principal.sub) }), record.confirmedAt == nil else {
            throw GatehouseError(.notFound, "There is no pending authenticator app to confirm; start again.")
        }
        try await acceptCode(code, record: record, confirming: true)
        logger.info("second factor enabled", metadata: ["user.sub": .string(principal.sub)])
        return try await newRecoveryCodes(for: principal.sub)
    }

    /// Removes the authenticator app and the recovery codes, with a current code.
    /// - Parameters:
    ///   - principal: The signed-in caller.
    ///   - code: The app's current code.
    ///   - logger: The request's logger.
    /// - Throws: `not_found`, `code_mismatch`, `too_many_requests`.
    public func remove(for principal: Principal, code: String, logger: Logger) async throws {
        let record = try await confirmedRecord(principal)
        try await acceptCode(code, record: record, confirming: false)
        let (now, origin) = (clock.now(), AuditOrigin.current)
        try await store.write { tx in
            try await tx.deleteMFA(userID: principal.sub)
            try await tx.appendAudit(.make(.mfaDisabled, userID: principal.sub, origin: origin, at: now, random: random))
        }
        logger.info("second factor removed", metadata: ["user.sub": .string(principal.sub)])
    }

    /// New recovery codes (the old ones stop working), with a current code.
    /// - Parameters:
    ///   - principal: The signed-in caller.
    ///   - code: The app's current code.
    /// - Returns: The ten new codes, shown once.
    /// - Throws: `not_found`, `code_mismatch`, `too_many_requests`.
    public func regenerateRecoveryCodes(for principal: Principal, code: String) async throws -> [String] {
        let record = try await confirmedRecord(principal)
        try await acceptCode(code, record: record, confirming: false)
        return try await newRecoveryCodes(for: principal.sub, audit: .recoveryCodesRegenerated)
    }

    func confirmedRecord(_ principal: Principal) async throws -> TOTPRecord {
        _ = try enabled()
        guard let record = try await store.read({ try await $0.totp(userID: principal.sub) }), record.confirmedAt != nil else {
            throw GatehouseError(.notFound, "No authenticator app is set up.")
        }
        return record
    }

    // MARK: the second step of a sign-in

    /// Redeems an `mfa_required` challenge with an authenticator-app code or a recovery code. The
    /// challenge is good for five minutes and spent only by success (wrong codes are limited by the
    /// throttle instead), so it completes one sign-in at most.
    /// - Parameters:
    ///   - token: The challenge (`mfa_token`).
    ///   - code: A 6-digit code or a recovery code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The session's tokens (`amr` names both factors).
    /// - Throws: `invalid_grant` (challenge unreadable, expired or used), `code_mismatch`, `too_many_requests`.
    public func verify(token: String, code: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        let strategy = try enabled()
        return try await events.observing("mfa") {
            let expired = GatehouseError(.invalidGrant, "This sign-in step expired or was used. Sign in again.")
            guard let challenge = MFAChallenge.open(token, with: box) else { throw expired }
            let now = clock.now()
            guard challenge.expiresAt > now else { throw expired }
            guard let record = try await store.read({ try await $0.totp(userID: challenge.userID) }), record.confirmedAt != nil else {
                throw expired
            }
            let trimmed = code.trimmingCharacters(in: .whitespaces)
            let isAppCode = trimmed.count == TOTP.digits && trimmed.allSatisfy(\.isNumber)
            let step = isAppCode ? TOTP.matchingStep(trimmed, secret: try secret(of: record), at: now) : nil
            let hash = recoveryHash(trimmed, userID: record.userID)
            let tokenHash = Digests.sha256Base64URL(token)
            // The code and the challenge are spent in one transaction: a replayed challenge spends no
            // code, and a wrong code spends no challenge (the throttle limits those).
            try await limiter.guarding([bucket(record.userID)], resetOnSuccess: [bucket(record.userID)], failureCodes: [.codeMismatch]) {
                try await store.write { tx in
                    if isAppCode {
                        guard let step, try await tx.acceptTOTPStep(userID: record.userID, step: step, confirmAt: nil) else {
                            throw GatehouseError.codeMismatch
                        }
                    } else {
                        guard try await tx.useRecoveryCode(userID: record.userID, hash: hash, at: now) else { throw GatehouseError.codeMismatch }
                    }
                    guard try await tx.recordAuthorizationStateUse(hash: tokenHash, codeChallenge: "mfa", expiresAt: challenge.expiresAt, at: now)
                    else { throw expired }
                }
            }
            if !isAppCode { logger.info("recovery code used", metadata: ["user.sub": .string(record.userID)]) }
            let subject = try await strategy.subject(afterSecondFactor: challenge.userID, firstFactor: challenge.method)
            return try await SessionIssuer.required(issuer).start(subject, client: client, logger: logger)
        }
    }
}

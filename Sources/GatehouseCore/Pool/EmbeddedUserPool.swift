import Foundation
import GatehouseInfrastructure
import Logging

/// The embedded user pool: users, codes, sessions and tokens in our own store, with Cognito-shaped
/// tokens. It is the embedded strategy behind the use cases (``PasswordStrategy``, ``SessionStrategy``,
/// ``SocialStrategy``, ``AccountStrategy``): it talks only to the store, and returns what it ended for
/// the use cases to publish. Its sign-ins return the ``VerifiedSubject`` they proved, and ``sessions``
/// (the ``SessionIssuer``) starts the session; social and phone sign-in record theirs with the issuer
/// in the transaction that finds the user.
public struct EmbeddedUserPool: IdentityProvider {
    /// The strategy's name in logs and the health output: `embedded`.
    public let name = "embedded"
    /// Lifetimes, limits and the password policy.
    public let settings: PoolSettings
    let store: any GatehouseStore
    let hasher: any PasswordHasher
    /// Issues and verifies this pool's tokens (and holds its JWKS).
    public let tokens: TokenService
    /// Queues mail in the transaction that writes the code it carries.
    let mail: DeliveryEnqueuer
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource
    /// The server-held secret refresh-token successors are derived with.
    let refreshKey: RefreshSuccessorKey
    /// Set when Apple credentials are configured: Apple tokens are kept and revoked at deletion.
    let appleVault: AppleTokenVault?
    /// Makes each password's Cognito SRP verifier where a password is set or used (nil: none are made).
    let srpVerifiers: SRPVerifiers?
    /// Starts sessions: the gates every sign-in passes, the session's records, its tokens.
    public let issuer: SessionIssuer
    /// Whether a custom-claims hook is configured (asked through ``sessions``).
    var claimsHook: ClaimsHookGate? { issuer.claimsHook }

    /// Creates the embedded strategy.
    /// - Parameters:
    ///   - settings: Lifetimes, limits and the password policy.
    ///   - store: The users, codes and sessions.
    ///   - hasher: Hashes and verifies passwords.
    ///   - tokens: Issues and verifies our tokens.
    ///   - mail: Queues mail in the store (delivered in the background).
    ///   - box: Keyed hashes and sealing.
    ///   - clock: The time source.
    ///   - random: Ids, codes and refresh tokens.
    ///   - refreshKey: The secret refresh-token successors are derived with.
    ///   - appleVault: Set when Apple credentials are configured.
    ///   - srpVerifiers: Makes the SRP verifier of each password set or used; `nil` makes none.
    ///   - claimsHook: The custom-claims hook; `nil` for none.
    public init(
        settings: PoolSettings,
        store: any GatehouseStore,
        hasher: any PasswordHasher,
        tokens: TokenService,
        mail: DeliveryEnqueuer,
        box: SecretBox,
        clock: any TimeSource,
        random: any RandomSource,
        refreshKey: RefreshSuccessorKey,
        appleVault: AppleTokenVault? = nil,
        srpVerifiers: SRPVerifiers? = nil,
        claimsHook: ClaimsHookGate? = nil
    ) {
        self.settings = settings
        self.store = store
        self.hasher = hasher
        self.tokens = tokens
        self.mail = mail
        self.box = box
        self.clock = clock
        self.random = random
        self.refreshKey = refreshKey
        self.appleVault = appleVault
        self.srpVerifiers = srpVerifiers
        self.issuer = SessionIssuer(
            settings: settings,
            store: store,
            tokens: tokens,
            deliveries: mail,
            box: box,
            clock: clock,
            random: random,
            claimsHook: claimsHook
        )
    }

    /// The liveness source the cache in front of this pool reads: a session is live while it is not
    /// ended and its user exists.
    /// - Parameter store: The store the sessions and users are read from.
    /// - Returns: The uncached liveness source.
    public static func livenessSource(store: any GatehouseStore) -> any SessionLiveness {
        StoreSessionLiveness(store: store)
    }

    // MARK: Codes

    enum CodeCheck: Sendable {
        case accepted
        case mismatch
        case expired
    }

    /// The keyed hash a code is stored as. `bound` ties it to one more value (the number being
    /// added), which the redeeming request must present again.
    func codeHash(userID: String, purpose: OneTimeCodeRecord.Purpose, code: String, bound: String? = nil) -> String {
        guard let bound else { return box.keyedHash("one-time-code", purpose.rawValue, userID, code) }
        return box.keyedHash("one-time-code", purpose.rawValue, userID, code, "bound", bound)
    }

    /// Issues a fresh code for `purpose`, replacing the user's earlier one.
    func newCode(
        for userID: String,
        purpose: OneTimeCodeRecord.Purpose,
        lifetime: TimeInterval,
        now: Date,
        bound: String? = nil
    ) -> (code: String, record: OneTimeCodeRecord) {
        let code = random.sixDigitCode()
        let record = OneTimeCodeRecord(
            userID: userID,
            purpose: purpose,
            codeHash: codeHash(userID: userID, purpose: purpose, code: code, bound: bound),
            createdAt: now,
            expiresAt: now.addingTimeInterval(lifetime)
        )
        return (code, record)
    }

    /// Checks a code inside a write transaction. One of the code's tries is spent *before* the
    /// comparison, in one statement, so concurrent guesses never share a try (a correct code is
    /// deleted by the caller, so spending a try on it costs nothing). A used-up or expired code
    /// answers `expired` only to the right code, so it tells an attacker nothing.
    func checkCode(
        _ code: String,
        for user: UserRecord,
        purpose: OneTimeCodeRecord.Purpose,
        now: Date,
        in tx: any StoreTransaction
    ) async throws -> CodeCheck {
        try await checkCode(code, owner: user.id, purpose: purpose, now: now, in: tx)
    }

    /// ``checkCode(_:for:purpose:now:in:)`` for a code owned by `owner` (a user id, or a phone
    /// sign-in's `phone:` owner), optionally bound to one more value.
    func checkCode(
        _ code: String,
        owner: String,
        purpose: OneTimeCodeRecord.Purpose,
        bound: String? = nil,
        now: Date,
        in tx: any StoreTransaction
    ) async throws -> CodeCheck {
        let presented = codeHash(userID: owner, purpose: purpose, code: code, bound: bound)
        if let record = try await tx.spendCodeAttempt(userID: owner, purpose: purpose, maxAttempts: settings.maxCodeAttempts) {
            guard ConstantTime.equals(presented, record.codeHash) else { return .mismatch }
            return record.expiresAt > now ? .accepted : .expired
        }
        // No code, or its tries are used up.
        guard let record = try await tx.code(userID: owner, purpose: purpose) else { return .mismatch }
        return ConstantTime.equals(presented, record.codeHash) ? .expired : .mismatch
    }

    /// Stores a code for `emailKey`'s account, or — for an address with no account that may get one —
    /// a decoy code row under a keyed hash of the address: the same store work either way, so the
    /// answer takes as long for both (no user enumeration by timing). Decoys expire like codes.
    func storeCode(
        for target: UserRecord?,
        emailKey: String,
        purpose: OneTimeCodeRecord.Purpose,
        lifetime: TimeInterval,
        now: Date,
        in tx: any StoreTransaction
    ) async throws -> String {
        let owner = target?.id ?? "decoy:" + box.keyedHash("decoy-code", emailKey)
        let (code, record) = newCode(for: owner, purpose: purpose, lifetime: lifetime, now: now)
        try await tx.replaceCode(record)
        return code
    }

    // MARK: Inputs

    /// The pool's password policy.
    /// - Parameters:
    ///   - password: The new password.
    ///   - email: The account's address, if known.
    /// - Throws: `invalid_password`.
    public func checkNewPassword(_ password: String, email: EmailAddress?) throws {
        try settings.passwordPolicy.validate(password, email: email)
    }

    /// A client past its share of the hashing queue is refused before any database work.
    /// - Parameter client: Who asks.
    /// - Throws: `too_many_requests`.
    public func admit(client: ClientInfo) throws {
        try hasher.checkAdmission(lane: client.rateLimitSubject)
    }

    /// A password longer than the hasher takes is no account's password.
    /// - Parameter password: The presented password.
    /// - Throws: `invalid_credentials`.
    public func checkPresentedPassword(_ password: String) throws {
        guard password.utf8.count <= ScryptPasswordHasher.maxPasswordBytes else { throw GatehouseError.invalidCredentials }
    }

    func passwordIdentity(for user: UserRecord, at now: Date) -> IdentityRecord {
        IdentityRecord(
            provider: "password",
            providerSubject: user.id,
            userID: user.id,
            email: user.email,
            emailVerified: user.emailVerified,
            linkedAt: now
        )
    }

    /// Keeps the just-in-time profile (if the app already made one) in step with the pool user.
    /// Callers return ``DomainEvent/profileChanged(sub:)`` for the use case to publish.
    func syncProfile(with user: UserRecord, in tx: any StoreTransaction) async throws {
        guard var profile = try await tx.profile(sub: user.id) else { return }
        profile.email = user.email
        profile.emailVerified = user.emailVerified
        if profile.fullName == nil { profile.fullName = user.name }
        profile.phone = user.phone
        profile.phoneVerified = user.phone != nil
        profile.updatedAt = user.updatedAt
        try await tx.updateProfile(profile)
    }
}

/// A session is live while it is not ended and its user still exists.
struct StoreSessionLiveness: SessionLiveness {
    let store: any GatehouseStore

    func isLive(sessionID: String, sub: String) async throws -> Bool {
        try await store.read { tx in
            guard let session = try await tx.session(id: sessionID), session.isActive, session.userID == sub else { return false }
            return try await tx.user(id: sub) != nil
        }
    }
}

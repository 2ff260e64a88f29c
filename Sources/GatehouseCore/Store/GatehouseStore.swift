import Foundation

/// Persistence for the embedded pool and the app profiles, implemented over SQLite and PostgreSQL.
///
/// Every multi-step change runs inside one `write` block, which is one database transaction: the
/// block's statements all commit or none do. Ordinary data and secrets are split (as Kratos splits
/// `Pool` and `PrivilegedPool`): signing keys and other sealed values are reached only through
/// ``secrets``.
public protocol GatehouseStore: Sendable {
    /// Runs `body` against a consistent read-only view.
    func read<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// Runs `body` in one write transaction. Throwing from `body` rolls everything back.
    func write<T: Sendable>(_ body: @escaping @Sendable (any StoreTransaction) async throws -> T) async throws -> T
    /// The privileged part of the store.
    var secrets: any SecretStore { get }
    /// Deletes what has outlived its use (expired codes, ended sessions, stale counters).
    func purgeExpired(now: Date) async throws -> Int
    /// Answers when the database does.
    func ping() async throws
    /// A short name of the backend (`sqlite`, `postgres`) for logs and `/ready`.
    var backendName: String { get }
}

/// The statements available inside a transaction.
public protocol StoreTransaction: UserRepository, IdentityRepository, SessionRepository, CodeRepository,
    ProfileRepository, RateLimitRepository, SettingsRepository, SocialRepository, SubjectRepository, MailQueueRepository, Sendable
{}

/// A write broke a uniqueness rule (an email already owned, an identity already linked).
public struct StoreConflict: Error, Sendable, CustomStringConvertible {
    /// Which uniqueness rule broke, in words (`user email`, `session id`, `hand-off code`); for logs.
    public let constraint: String
    /// A conflict on `constraint`, thrown by a store backend when the database reports a unique violation.
    /// - Parameter constraint: The rule that broke, in words.
    public init(constraint: String) { self.constraint = constraint }
    /// `unique constraint violated: <constraint>`, for logs.
    public var description: String { "unique constraint violated: \(constraint)" }
}

/// The embedded pool's users, found by id (the `sub`) or by email key (the case-folded address an
/// account owns, unique across the pool).
public protocol UserRepository: Sendable {
    /// Throws ``StoreConflict`` if the id or the email key is taken.
    func insertUser(_ user: UserRecord) async throws
    func user(id: String) async throws -> UserRecord?
    func user(emailKey: String) async throws -> UserRecord?
    /// Replaces the stored row with the same id. Throws ``StoreConflict`` if the new email key is taken.
    func updateUser(_ user: UserRecord) async throws
    func deleteUser(id: String) async throws
}

/// The sign-in methods linked to users: `password`, or a provider and its subject, unique per (provider, subject).
public protocol IdentityRepository: Sendable {
    /// Throws ``StoreConflict`` if (provider, subject) is already linked.
    func insertIdentity(_ identity: IdentityRecord) async throws
    func identity(provider: String, subject: String) async throws -> IdentityRecord?
    /// The identity and the user it belongs to, in one lookup (social sign-in's common case).
    func identityWithUser(provider: String, subject: String) async throws -> (IdentityRecord, UserRecord)?
    func identities(userID: String) async throws -> [IdentityRecord]
    func updateIdentity(_ identity: IdentityRecord) async throws
    func deleteIdentities(userID: String) async throws
}

/// Sessions and the refresh-token rotation chains inside them. Refresh tokens are stored only as
/// hashes, and ending a session is what makes its access and refresh tokens stop counting.
public protocol SessionRepository: Sendable {
    func insertSession(_ session: SessionRecord) async throws
    func session(id: String) async throws -> SessionRecord?
    /// Ends one session; `false` if it was already ended or does not exist.
    @discardableResult
    func revokeSession(id: String, at: Date, reason: SessionRecord.EndReason) async throws -> Bool
    /// Ends every active session of a user except `except`; returns the ids it ended.
    @discardableResult
    func revokeSessions(userID: String, except: String?, at: Date, reason: SessionRecord.EndReason) async throws -> [String]
    /// Ids of the user's sessions that are still active.
    func activeSessionIDs(userID: String) async throws -> [String]
    /// Removes sessions and their refresh tokens (account deletion).
    func deleteSessions(userID: String) async throws

    func insertRefreshToken(_ token: RefreshTokenRecord) async throws
    func refreshToken(hash: String) async throws -> RefreshTokenRecord?
    /// Marks `hash` rotated to `successorHash` only if it is not rotated yet (compare-and-set);
    /// `false` when another request rotated it first.
    func markRefreshTokenRotated(hash: String, successorHash: String, at: Date) async throws -> Bool
}

/// One-time confirmation and reset codes, stored as keyed hashes, one live code per user and purpose,
/// with an atomic per-code try counter so guesses cannot be parallelised.
public protocol CodeRepository: Sendable {
    /// Stores the user's code for `purpose`, replacing any earlier one.
    func replaceCode(_ code: OneTimeCodeRecord) async throws
    func code(userID: String, purpose: OneTimeCodeRecord.Purpose) async throws -> OneTimeCodeRecord?
    /// Spends one of the code's tries before it is checked: counts the attempt and returns the code
    /// (with the new count), unless it has used `maxAttempts` already or does not exist — then `nil`,
    /// and nothing changes. One statement, so concurrent guesses never share a try.
    func spendCodeAttempt(userID: String, purpose: OneTimeCodeRecord.Purpose, maxAttempts: Int) async throws -> OneTimeCodeRecord?
    func deleteCode(userID: String, purpose: OneTimeCodeRecord.Purpose) async throws
    func deleteCodes(userID: String) async throws
}

/// The app's own profiles, keyed by the identity provider's `sub` and created on first use.
public protocol ProfileRepository: Sendable {
    func profile(sub: String) async throws -> ProfileRecord?
    /// Inserts `profile` unless one exists for its `sub`; returns the stored profile either way.
    func insertProfileIfAbsent(_ profile: ProfileRecord) async throws -> ProfileRecord
    func updateProfile(_ profile: ProfileRecord) async throws
    func deleteProfile(sub: String) async throws
}

/// Rate-limit counters, keyed by bucket (a rule name and a keyed hash of the subject, never a clear
/// email or address), shared by every instance on the database.
public protocol RateLimitRepository: Sendable {
    func counter(bucket: String) async throws -> RateCounter?
    /// Adds one attempt, starting a new window when the current one is older than `window`.
    func incrementCounter(bucket: String, now: Date, window: TimeInterval) async throws -> RateCounter
    func setBlockedUntil(bucket: String, until: Date) async throws
    /// Counts one attempt unless the bucket is blocked at `now` (starting a new window when the
    /// current one is older than `window`), in one atomic statement.
    /// - Returns: The counter after counting, or `nil` when the bucket is blocked (nothing counted).
    func reserveAttempt(bucket: String, now: Date, window: TimeInterval) async throws -> RateCounter?
    /// Takes back one attempt counted in the window that started at `windowStart`, and the block
    /// `blockedUntil` that attempt set, if it is still the bucket's block.
    func releaseAttempt(bucket: String, windowStart: Date, blockedUntil: Date?) async throws
    func deleteCounter(bucket: String) async throws
}

/// Small key-value settings the instances must agree on, written once by whichever starts first.
public protocol SettingsRepository: Sendable {
    func setting(_ key: String) async throws -> String?
    /// Stores `value` unless the key is set; returns the stored value (the first writer wins).
    func insertSettingIfAbsent(_ key: String, value: String) async throws -> String
}

/// Social sign-in state: Apple tokens to revoke, the revocation queue, web-flow states, hand-off codes.
public protocol SocialRepository: Sendable {
    func upsertAppleToken(_ token: AppleTokenRecord) async throws
    func appleTokens(userID: String) async throws -> [AppleTokenRecord]
    func deleteAppleTokens(userID: String) async throws

    func enqueueRevocation(_ revocation: AppleRevocationRecord) async throws
    /// Unfinished revocations whose next attempt is due.
    func dueRevocations(now: Date, limit: Int) async throws -> [AppleRevocationRecord]
    func revocation(id: String) async throws -> AppleRevocationRecord?
    func updateRevocation(_ revocation: AppleRevocationRecord) async throws

    /// Records that the sealed web-flow `state` with this hash came back, and says whether this was its
    /// first use. Atomic across instances: of any number of concurrent calls with one hash, exactly one
    /// returns `true`. The row is kept until `expiresAt` (``GatehouseStore/purgeExpired(now:)``).
    func recordAuthorizationStateUse(hash: String, codeChallenge: String, expiresAt: Date, at: Date) async throws -> Bool

    func insertHandoff(_ handoff: HandoffRecord) async throws
    /// Removes the hand-off code and returns it, unless it is unknown or was redeemed already.
    func consumeHandoff(hash: String, at: Date) async throws -> HandoffRecord?
}

/// For users kept by another provider (Cognito): when their tokens stopped counting, whether they
/// were deleted, leases that serialise work on one user across instances, and the sealed password
/// social sign-in uses for them.
public protocol SubjectRepository: Sendable {
    func subjectRevocation(sub: String) async throws -> SubjectRevocation?
    /// Moves the subject's cut-off forward to `revokedBefore` (never back) and, with `deletedAt`,
    /// marks it deleted for good.
    func recordSubjectRevocation(sub: String, revokedBefore: Date, deletedAt: Date?) async throws
    /// Takes the lease `name` for `holder` until `until` unless another holder has it unexpired at `now`.
    func acquireLease(name: String, holder: String, until: Date, now: Date) async throws -> Bool
    func releaseLease(name: String, holder: String) async throws

    /// The sealed random password Gatehouse keeps for the Cognito user `sub`, if it set one.
    func cognitoPassword(sub: String) async throws -> CognitoPasswordRecord?
    /// Stores (or replaces) the user's sealed password.
    func upsertCognitoPassword(_ record: CognitoPasswordRecord) async throws
    func deleteCognitoPassword(sub: String) async throws
}

/// A subject's revocation state: tokens issued before `revokedBefore` no longer count, and a deleted
/// subject's tokens never do.
public struct SubjectRevocation: Sendable, Equatable {
    /// The provider's subject (the Cognito user's `sub`).
    public var sub: String
    /// The cut-off: tokens whose `iat` is before it are refused. Only ever moves forward.
    public var revokedBefore: Date
    /// When the subject was deleted; once set, none of its tokens count, whatever their age.
    public var deletedAt: Date?

    /// A revocation state as stored.
    /// - Parameters:
    ///   - sub: The provider's subject.
    ///   - revokedBefore: Tokens issued before this no longer count.
    ///   - deletedAt: When the subject was deleted, or `nil` while it exists.
    public init(sub: String, revokedBefore: Date, deletedAt: Date?) {
        self.sub = sub
        self.revokedBefore = revokedBefore
        self.deletedAt = deletedAt
    }
}

/// Sealed material: signing keys. Values arrive and leave sealed by ``SecretBox``.
public protocol SecretStore: Sendable {
    func signingKeys() async throws -> [StoredSigningKey]
    /// Adds a key and, in the same transaction, retires the previous active key of the same use.
    func addSigningKey(_ key: StoredSigningKey, retirePreviousAt: Date, expirePreviousAt: Date) async throws
    /// Adds the first key of a use unless another instance already did; returns the active key.
    func addInitialSigningKey(_ key: StoredSigningKey) async throws -> StoredSigningKey
    func deleteExpiredSigningKeys(now: Date) async throws
    /// Stores the sealed secret `name` unless it exists, and returns the stored one: the first
    /// instance to start creates it, every other instance gets the same.
    /// - Parameters:
    ///   - name: The secret's name (e.g. `refresh_successor_key`).
    ///   - sealed: A fresh value sealed by ``SecretBox``, stored only if none is.
    /// - Returns: The stored sealed value.
    func insertSecretIfAbsent(_ name: String, sealed: String) async throws -> String
}

/// A signing key as stored: the private key sealed under the master key.
public struct StoredSigningKey: Sendable, Equatable {
    /// The key id published in the JWKS and in every token's `kid` header.
    public var kid: String
    /// What the key signs: `id` (ID tokens) or `access` (access tokens), ``SigningKey/Use``'s raw value.
    public var use: String
    /// The DER private key sealed by ``SecretBox`` under context `signing-key:<kid>`, so a row copied to
    /// another kid does not open.
    public var sealedPrivateKey: String
    /// When the key was generated.
    public var createdAt: Date
    /// When a newer key of the same use replaced it: it stops signing but still verifies. `nil` while active.
    public var retiredAt: Date?
    /// When a retired key stops verifying, leaves the JWKS and may be deleted: its retirement plus an
    /// overlap covering the longest token lifetime and verifiers' JWKS cache time. `nil` while active.
    public var expiresAt: Date?

    /// A signing key as stored.
    /// - Parameters:
    ///   - kid: The key id.
    ///   - use: `id` or `access`.
    ///   - sealedPrivateKey: The sealed DER private key.
    ///   - createdAt: When it was generated.
    ///   - retiredAt: When it stopped signing, or `nil` for the active key.
    ///   - expiresAt: When it stops verifying, or `nil` for the active key.
    public init(kid: String, use: String, sealedPrivateKey: String, createdAt: Date, retiredAt: Date? = nil, expiresAt: Date? = nil) {
        self.kid = kid
        self.use = use
        self.sealedPrivateKey = sealedPrivateKey
        self.createdAt = createdAt
        self.retiredAt = retiredAt
        self.expiresAt = expiresAt
    }
}

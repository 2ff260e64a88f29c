import Foundation
import GatehouseInfrastructure
import Logging
import _CryptoExtras

/// Creates, loads and rotates the embedded pool's signing keys. Keys live in the store, their private
/// halves sealed under the master key; the first instance to start creates them and any other
/// instance sharing the database uses the same ones.
public struct SigningKeyManager: Sendable {
    let secrets: any SecretStore
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource

    /// Creates a manager.
    /// - Parameters:
    ///   - secrets: Where the sealed keys are stored (shared by every instance on the database).
    ///   - box: Seals and opens the private halves under the master key (context `signing-key:<kid>`).
    ///   - clock: Dates new keys and decides which keys are still published.
    ///   - random: The random part of new key ids.
    public init(secrets: any SecretStore, box: SecretBox, clock: any TimeSource, random: any RandomSource) {
        self.secrets = secrets
        self.box = box
        self.clock = clock
        self.random = random
    }

    /// Loads the keys, creating an ID-token and an access-token key if there are none yet.
    ///
    /// Safe on several instances starting at once: the store keeps the first key added for a use, and
    /// every instance then reads that one.
    /// - Parameters:
    ///   - logger: Logs the keys this instance created.
    ///   - initialKeys: The keys a new store starts with, by use (tests pass fixed ones: RSA generation is
    ///     slow); a use without one gets a new key.
    /// - Returns: The published keys, to put in the ``Keyring``.
    /// - Throws: A store error; AES-GCM's authentication error when a stored key was sealed under
    ///   another master key; `internal_error` for a key of unknown use; the key generation's error.
    public func bootstrap(logger: Logger, initialKeys: [SigningKey] = []) async throws -> Keyring.Snapshot {
        var stored = try await secrets.signingKeys()
        for use in SigningKey.Use.allCases where !stored.contains(where: { $0.use == use.rawValue && $0.retiredAt == nil }) {
            let key = try initialKeys.first { $0.use == use } ?? newKey(use: use)
            let active = try await secrets.addInitialSigningKey(try seal(key))
            if active.kid == key.kid {
                logger.info("created signing key", metadata: ["kid": .string(key.kid), "use": .string(use.rawValue)])
            }
            stored = try await secrets.signingKeys()
        }
        return try Keyring.makeSnapshot(keys: try stored.map(unseal), now: clock.now())
    }

    /// Re-reads the keys (another instance may have rotated them).
    /// - Returns: The keys still published now.
    /// - Throws: A store error; AES-GCM's error when a key cannot be opened; `internal_error` when a use
    ///   has no active key.
    public func load() async throws -> Keyring.Snapshot {
        try Keyring.makeSnapshot(keys: try await secrets.signingKeys().map(unseal), now: clock.now())
    }

    /// Replaces the signing key of `use`. The old key keeps verifying (and stays in the JWKS) for
    /// `overlap`, which must cover the longest token lifetime plus verifiers' JWKS cache time. Keys whose
    /// overlap has ended are deleted. Running instances pick the new key up at their next ``load()``.
    /// - Parameters:
    ///   - use: Which key to replace: the ID tokens' or the access tokens'.
    ///   - overlap: Seconds the previous key stays published after it stops signing.
    ///   - logger: Logs the new key's id.
    /// - Returns: The new key, now the active signer of `use` in the store.
    /// - Throws: A store error, or the key generation's or sealing's error.
    public func rotate(use: SigningKey.Use, overlap: TimeInterval, logger: Logger) async throws -> SigningKey {
        let now = clock.now()
        let key = try newKey(use: use)
        try await secrets.addSigningKey(try seal(key), retirePreviousAt: now, expirePreviousAt: now.addingTimeInterval(overlap))
        try await secrets.deleteExpiredSigningKeys(now: now)
        logger.info("rotated signing key", metadata: ["kid": .string(key.kid), "use": .string(use.rawValue)])
        return key
    }

    func newKey(use: SigningKey.Use) throws -> SigningKey {
        let now = clock.now()
        let kid = "\(use.rawValue)-\(now.epochSeconds)-\(Base64URL.encode(random.bytes(6)))"
        return try SigningKey.generate(use: use, kid: kid, now: now)
    }

    func seal(_ key: SigningKey) throws -> StoredSigningKey {
        StoredSigningKey(
            kid: key.kid,
            use: key.use.rawValue,
            sealedPrivateKey: try box.seal(Array(key.privateKey.derRepresentation), context: "signing-key:\(key.kid)"),
            createdAt: key.createdAt,
            retiredAt: key.retiredAt,
            expiresAt: key.expiresAt
        )
    }

    func unseal(_ stored: StoredSigningKey) throws -> SigningKey {
        guard let use = SigningKey.Use(rawValue: stored.use) else {
            throw GatehouseError.internalError(cause: "signing key \(stored.kid) has unknown use \(stored.use)")
        }
        let der = try box.open(stored.sealedPrivateKey, context: "signing-key:\(stored.kid)")
        return SigningKey(
            kid: stored.kid,
            use: use,
            privateKey: try _RSA.Signing.PrivateKey(derRepresentation: der),
            createdAt: stored.createdAt,
            retiredAt: stored.retiredAt,
            expiresAt: stored.expiresAt
        )
    }
}

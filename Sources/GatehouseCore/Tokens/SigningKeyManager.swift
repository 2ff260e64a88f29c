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
    /// The algorithm of the keys this manager makes (`GATEHOUSE_TOKEN_ALG`).
    public let algorithm: SigningAlgorithm

    /// Creates a manager.
    /// - Parameters:
    ///   - secrets: Where the sealed keys are stored (shared by every instance on the database).
    ///   - box: Seals and opens the private halves under the master key (context `signing-key:<kid>`).
    ///   - clock: Dates new keys and decides which keys are still published.
    ///   - random: The random part of new key ids.
    ///   - algorithm: What new keys are: RS256 (RSA-2048, the default) or ES256 (P-256).
    public init(secrets: any SecretStore, box: SecretBox, clock: any TimeSource, random: any RandomSource, algorithm: SigningAlgorithm = .rs256) {
        self.secrets = secrets
        self.box = box
        self.clock = clock
        self.random = random
        self.algorithm = algorithm
    }

    /// Loads the keys, creating an ID-token and an access-token key if there are none yet.
    ///
    /// Safe on several instances starting at once: the store keeps the first key added for a use, and
    /// every instance then reads that one.
    ///
    /// When the active key of a use has another algorithm than ``algorithm`` (the setting changed), it is
    /// replaced by a new key of this one, as a rotation does: the old key stops signing and stays
    /// published, verifying the tokens it signed, for `switchOverlap` seconds.
    /// - Parameters:
    ///   - logger: Logs the keys this instance created.
    ///   - initialKeys: The keys a new store starts with, by use (tests pass fixed ones: RSA generation is
    ///     slow); a use without one gets a new key. Ignored when their algorithm is not ``algorithm``.
    ///   - switchOverlap: How long a key of the other algorithm keeps verifying after the switch (the
    ///     longest token lifetime plus verifiers' JWKS cache time).
    /// - Returns: The published keys, to put in the ``Keyring``, and whether this instance switched a
    ///   use's active key to ``algorithm`` (running instances must then be told to reload their keys).
    /// - Throws: A store error; AES-GCM's authentication error when a stored key was sealed under
    ///   another master key; `internal_error` for a key of unknown use or algorithm; the key generation's error.
    public func bootstrap(
        logger: Logger,
        initialKeys: [SigningKey] = [],
        switchOverlap: TimeInterval = 4260
    ) async throws -> (snapshot: Keyring.Snapshot, switched: Bool) {
        var stored = try await secrets.signingKeys()
        var switched = false
        for use in SigningKey.Use.allCases {
            let active = stored.first { $0.use == use.rawValue && $0.retiredAt == nil }
            if let active, active.algorithm == algorithm.rawValue { continue }
            let key = try initialKeys.first { $0.use == use && $0.algorithm == algorithm } ?? newKey(use: use)
            let now = clock.now()
            let result =
                active == nil
                ? try await secrets.addInitialSigningKey(try seal(key))
                : try await secrets.switchSigningKey(try seal(key), retirePreviousAt: now, expirePreviousAt: now.addingTimeInterval(switchOverlap))
            if result.kid == key.kid {
                switched = switched || active != nil
                var metadata: Logger.Metadata = ["kid": .string(key.kid), "use": .string(use.rawValue), "alg": .string(algorithm.rawValue)]
                if let active { metadata["previous.kid"] = .string(active.kid) }
                logger.info(active == nil ? "created signing key" : "switched signing key algorithm", metadata: metadata)
            }
            stored = try await secrets.signingKeys()
        }
        return (try Keyring.makeSnapshot(keys: try stored.map(unseal), now: clock.now()), switched)
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
        return try SigningKey.generate(use: use, kid: kid, now: now, algorithm: algorithm)
    }

    func seal(_ key: SigningKey) throws -> StoredSigningKey {
        StoredSigningKey(
            kid: key.kid,
            use: key.use.rawValue,
            sealedPrivateKey: try box.seal(key.derRepresentation, context: "signing-key:\(key.kid)"),
            createdAt: key.createdAt,
            retiredAt: key.retiredAt,
            expiresAt: key.expiresAt,
            algorithm: key.algorithm.rawValue
        )
    }

    func unseal(_ stored: StoredSigningKey) throws -> SigningKey {
        guard let use = SigningKey.Use(rawValue: stored.use) else {
            throw GatehouseError.internalError(cause: "signing key \(stored.kid) has unknown use \(stored.use)")
        }
        guard let algorithm = SigningAlgorithm(rawValue: stored.algorithm) else {
            throw GatehouseError.internalError(cause: "signing key \(stored.kid) has unknown algorithm \(stored.algorithm)")
        }
        let der = try box.open(stored.sealedPrivateKey, context: "signing-key:\(stored.kid)")
        return try SigningKey.load(
            der: der,
            algorithm: algorithm,
            kid: stored.kid,
            use: use,
            createdAt: stored.createdAt,
            retiredAt: stored.retiredAt,
            expiresAt: stored.expiresAt
        )
    }
}

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

    public init(secrets: any SecretStore, box: SecretBox, clock: any TimeSource, random: any RandomSource) {
        self.secrets = secrets
        self.box = box
        self.clock = clock
        self.random = random
    }

    /// Loads the keys, creating an ID-token and an access-token key if there are none yet.
    public func bootstrap(logger: Logger) async throws -> Keyring.Snapshot {
        var stored = try await secrets.signingKeys()
        for use in SigningKey.Use.allCases where !stored.contains(where: { $0.use == use.rawValue && $0.retiredAt == nil }) {
            let key = try newKey(use: use)
            let active = try await secrets.addInitialSigningKey(try seal(key))
            if active.kid == key.kid {
                logger.info("created signing key", metadata: ["kid": .string(key.kid), "use": .string(use.rawValue)])
            }
            stored = try await secrets.signingKeys()
        }
        return try Keyring.makeSnapshot(keys: try stored.map(unseal), now: clock.now())
    }

    /// Re-reads the keys (another instance may have rotated them).
    public func load() async throws -> Keyring.Snapshot {
        try Keyring.makeSnapshot(keys: try await secrets.signingKeys().map(unseal), now: clock.now())
    }

    /// Replaces the signing key of `use`. The old key keeps verifying (and stays in the JWKS) for
    /// `overlap`, which must cover the longest token lifetime plus verifiers' JWKS cache time.
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
            kid: key.kid, use: key.use.rawValue,
            sealedPrivateKey: try box.seal(Array(key.privateKey.derRepresentation), context: "signing-key:\(key.kid)"),
            createdAt: key.createdAt, retiredAt: key.retiredAt, expiresAt: key.expiresAt)
    }

    func unseal(_ stored: StoredSigningKey) throws -> SigningKey {
        guard let use = SigningKey.Use(rawValue: stored.use) else {
            throw GatehouseError.internalError(cause: "signing key \(stored.kid) has unknown use \(stored.use)")
        }
        let der = try box.open(stored.sealedPrivateKey, context: "signing-key:\(stored.kid)")
        return SigningKey(
            kid: stored.kid, use: use, privateKey: try _RSA.Signing.PrivateKey(derRepresentation: der),
            createdAt: stored.createdAt, retiredAt: stored.retiredAt, expiresAt: stored.expiresAt)
    }
}

import Foundation
import GatehouseInfrastructure

/// The signing keys in use, swapped atomically when keys are loaded or rotated. Reading it is a lock
/// and a struct copy, cheap enough for every request. The server makes an empty keyring (``init()``)
/// and loads the keys at start-up with ``replace(with:)``.
public final class Keyring: Sendable {
    /// The keys at one moment: the current signers and every key still published.
    public struct Snapshot: Sendable {
        /// Signs new ID tokens: the newest unretired ID-token key.
        var idSigner: SigningKey
        /// Signs new access tokens: the newest unretired access-token key.
        public var accessSigner: SigningKey
        /// Every published ID-token key (current and not-yet-expired previous ones).
        package var idKeys: JWSKeySet
        /// Every published access-token key.
        package var accessKeys: JWSKeySet
        /// The JWKS document, serialised once per change.
        public var jwks: [UInt8]
        /// What ID tokens that still verify may be signed with, as discovery's
        /// `id_token_signing_alg_values_supported` lists them: the current signer's first, then those of
        /// the other published ID-token keys (after a switch, the old algorithm until its keys expire).
        public var idTokenAlgorithms: [String]
    }

    private let state: LockedBox<Snapshot?>
    /// Loads started and the latest one swapped in, numbered in the order they started (``reload(_:)``).
    private let loads = LockedBox((started: 0, applied: 0))

    /// An empty keyring, loaded at start-up.
    public init() {
        state = LockedBox(nil)
    }

    /// Creates a keyring holding `snapshot`.
    /// - Parameter snapshot: The keys to start with (``SigningKeyManager/bootstrap(logger:)``).
    public init(_ snapshot: Snapshot) {
        state = LockedBox(snapshot)
    }

    /// The current keys, copied: a request signs and verifies with one consistent set. Stops the
    /// process when read before start-up loaded the keys (the server binds only after).
    public var snapshot: Snapshot {
        guard let snapshot = state.withLock({ $0 }) else { preconditionFailure("the signing keys were read before start-up loaded them") }
        return snapshot
    }

    /// Swaps in new keys after a load or a rotation; callers holding an older snapshot keep it.
    /// - Parameter snapshot: The keys to use from now on.
    public func replace(with snapshot: Snapshot) {
        state.withLock { $0 = snapshot }
    }

    /// Loads the keys and swaps them in, unless a load that started later was swapped in first: reloads
    /// overlap (a rotation's announcement, the event channel listening again, the periodic one), and one
    /// that read the store earlier must not finish last and put back keys without the newest.
    /// - Parameter load: Reads the keys from the store (``SigningKeyManager/load()``).
    /// - Returns: Whether this load's keys were swapped in.
    /// - Throws: What `load` throws; the keys in use stay.
    @discardableResult
    public func reload(_ load: () async throws -> Snapshot) async throws -> Bool {
        let ticket = loads.withLock { counters in
            counters.started += 1
            return counters.started
        }
        let snapshot = try await load()
        return loads.withLock { counters in
            guard ticket > counters.applied else { return false }
            counters.applied = ticket
            state.withLock { $0 = snapshot }
            return true
        }
    }

    /// Builds a snapshot from the keys that are still published at `now`.
    /// - Parameters:
    ///   - keys: Every stored key, of either use, retired or not.
    ///   - now: Keys whose `expiresAt` is not after this are left out.
    /// - Returns: The snapshot: the newest unretired key of each use signs; the JWKS lists every
    ///   published key, newest first, whatever its algorithm (a retired RSA key keeps verifying beside
    ///   a new ES256 one until it expires, and the other way round).
    /// - Throws: `internal_error` when a use has no unretired key, or a key's JWK cannot be built.
    public static func makeSnapshot(keys: [SigningKey], now: Date) throws -> Snapshot {
        let published = keys.filter { $0.expiresAt.map { $0 > now } ?? true }
        func signer(_ use: SigningKey.Use) throws -> SigningKey {
            guard let key = published.filter({ $0.use == use && $0.retiredAt == nil }).max(by: { $0.createdAt < $1.createdAt })
            else { throw GatehouseError.internalError(cause: "no active \(use.rawValue) signing key") }
            return key
        }
        let idKeys = published.filter { $0.use == .idToken }
        let accessKeys = published.filter { $0.use == .accessToken }
        let jwks = JSONValue.object(["keys": .array(try published.sorted { $0.createdAt > $1.createdAt }.map { try $0.publicJWK() })])
        let idSigner = try signer(.idToken)
        var idTokenAlgorithms = [idSigner.algorithm.rawValue]
        for key in idKeys.sorted(by: { $0.createdAt > $1.createdAt }) where !idTokenAlgorithms.contains(key.algorithm.rawValue) {
            idTokenAlgorithms.append(key.algorithm.rawValue)
        }
        return Snapshot(
            idSigner: idSigner,
            accessSigner: try signer(.accessToken),
            idKeys: JWSKeySet(idKeys.map(\.verificationKey)),
            accessKeys: JWSKeySet(accessKeys.map(\.verificationKey)),
            jwks: jwks.serialized(),
            idTokenAlgorithms: idTokenAlgorithms
        )
    }
}

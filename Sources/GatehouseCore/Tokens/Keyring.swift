import Foundation
import GatehouseInfrastructure

/// The signing keys in use, swapped atomically when keys are loaded or rotated. Reading it is a lock
/// and a struct copy, cheap enough for every request.
public final class Keyring: Sendable {
    public struct Snapshot: Sendable {
        public var idSigner: SigningKey
        public var accessSigner: SigningKey
        /// Every published ID-token key (current and not-yet-expired previous ones).
        package var idKeys: RS256KeySet
        /// Every published access-token key.
        package var accessKeys: RS256KeySet
        /// The JWKS document, serialised once per change.
        public var jwks: [UInt8]
    }

    private let state: Mutex<Snapshot>

    public init(_ snapshot: Snapshot) {
        state = Mutex(snapshot)
    }

    public var snapshot: Snapshot { state.withLock { $0 } }

    public func replace(with snapshot: Snapshot) {
        state.withLock { $0 = snapshot }
    }

    /// Builds a snapshot from the keys that are still published at `now`.
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
        return Snapshot(
            idSigner: try signer(.idToken),
            accessSigner: try signer(.accessToken),
            idKeys: RS256KeySet(idKeys.map { .init(kid: $0.kid, publicKey: $0.publicKey) }),
            accessKeys: RS256KeySet(accessKeys.map { .init(kid: $0.kid, publicKey: $0.publicKey) }),
            jwks: jwks.serialized())
    }
}

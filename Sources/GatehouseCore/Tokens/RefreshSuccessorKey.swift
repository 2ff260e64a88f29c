import Crypto
import Foundation
import GatehouseInfrastructure

/// The server-held secret that refresh-token successors are derived with.
///
/// A token's successor is an HMAC of the token under this key, so a client that lost a refresh
/// response can present the old token again within the grace window and receive the same successor,
/// while nobody who holds a token (a log, a backup, a stolen device image) can compute its
/// successors offline. The key is random, sealed under the master key in the store's secrets, and the
/// same on every instance that shares the database. The server makes the handle first (``init()``)
/// and loads the key at start-up (``load(secrets:box:random:)``).
public final class RefreshSuccessorKey: Sendable {
    private let stored = SetOnce<SymmetricKey>("the refresh successor key")
    var key: SymmetricKey { stored.value }

    /// A key loaded at start-up.
    public init() {}

    /// - Parameter bytes: 32 random bytes.
    public init(bytes: [UInt8]) {
        stored.set(SymmetricKey(data: bytes))
    }

    static let secretName = "refresh_successor_key"
    static let sealingContext = "refresh-successor-key/v1"

    /// Loads the key from the store's secrets, creating it on the first start.
    /// - Parameters:
    ///   - secrets: The privileged store.
    ///   - box: Seals and opens it under the master key.
    ///   - random: Where a new key comes from.
    /// - Returns: The key every instance shares.
    /// - Throws: When the store fails, or the stored key does not open with this master key.
    public static func load(secrets: any SecretStore, box: SecretBox, random: any RandomSource) async throws -> RefreshSuccessorKey {
        let key = RefreshSuccessorKey()
        try await key.load(secrets: secrets, box: box, random: random)
        return key
    }

    /// Loads this handle's key from the store's secrets, creating it on the first start.
    /// - Parameters:
    ///   - secrets: The privileged store.
    ///   - box: Seals and opens it under the master key.
    ///   - random: Where a new key comes from.
    /// - Throws: When the store fails, or the stored key does not open with this master key.
    public func load(secrets: any SecretStore, box: SecretBox, random: any RandomSource) async throws {
        let fresh = try box.seal(random.bytes(32), context: Self.sealingContext)
        let sealed = try await secrets.insertSecretIfAbsent(Self.secretName, sealed: fresh)
        let bytes: [UInt8]
        do {
            bytes = try box.open(sealed, context: Self.sealingContext)
        } catch {
            throw GatehouseError.internalError(cause: "the stored refresh successor key does not open with this master key")
        }
        guard bytes.count == 32 else { throw GatehouseError.internalError(cause: "the stored refresh successor key is not 32 bytes") }
        stored.set(SymmetricKey(data: bytes))
    }

    /// The successor of `token`: HMAC-SHA256 under this key of a fixed label and the token.
    func mac(_ token: String) -> [UInt8] {
        var mac = HMAC<SHA256>(key: key)
        mac.update(data: Data("gatehouse/refresh/successor/v2".utf8))
        mac.update(data: [0])
        mac.update(data: Data(token.utf8))
        return Array(mac.finalize())
    }
}

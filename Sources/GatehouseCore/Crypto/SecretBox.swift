import Crypto
import Foundation
import GatehouseInfrastructure

/// Encrypts secrets at rest (signing keys, Apple refresh tokens) with AES-256-GCM under the master key,
/// and derives keyed hashes (codes, rate-limit keys) from it so a database dump alone reveals neither.
///
/// The server makes its box before it has read the master key (``init()``) and loads the key at
/// start-up (``load(masterKey:)``), so everything that seals or hashes can be built first.
public final class SecretBox: Sendable {
    private struct Keys: Sendable {
        let encryption: SymmetricKey
        let hashing: SymmetricKey
        let check: String
    }

    private let keys = SetOnce<Keys>("the master key")

    /// A box whose master key is loaded at start-up.
    public init() {}

    /// A box with its master key.
    /// - Parameter masterKey: Exactly 32 bytes.
    /// - Throws: `internal_error` when the key is not 32 bytes.
    public convenience init(masterKey: [UInt8]) throws(GatehouseError) {
        self.init()
        try load(masterKey: masterKey)
    }

    /// Derives the encryption, hashing and key-check keys from the master key (HKDF-SHA256, a distinct
    /// `info` for each), so no use of one key weakens another. Only the first load has an effect.
    /// - Parameter masterKey: Exactly 32 bytes.
    /// - Throws: `internal_error` when the key is not 32 bytes.
    public func load(masterKey: [UInt8]) throws(GatehouseError) {
        guard masterKey.count == 32 else {
            throw GatehouseError(.internalError, "The master key must be 32 bytes.", cause: "master key length \(masterKey.count)")
        }
        let master = SymmetricKey(data: masterKey)
        let check = HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("gatehouse/key-check/v1".utf8), outputByteCount: 16)
        keys.set(
            Keys(
                encryption: HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("gatehouse/encryption/v1".utf8), outputByteCount: 32),
                hashing: HKDF<SHA256>.deriveKey(inputKeyMaterial: master, info: Data("gatehouse/hashing/v1".utf8), outputByteCount: 32),
                check: check.withUnsafeBytes { Base64URL.encode(Array($0)) }
            )
        )
    }

    /// A value that identifies the master key without revealing it; stored beside the data it protects
    /// so an instance started with a different key refuses to run instead of failing later.
    public var keyCheck: String { keys.value.check }

    private var encryptionKey: SymmetricKey { keys.value.encryption }
    private var hashingKey: SymmetricKey { keys.value.hashing }

    /// `v1.<base64url(nonce | ciphertext | tag)>`; `context` is bound as associated data so a value
    /// cannot be moved to another row or purpose.
    /// - Parameters:
    ///   - plaintext: The secret.
    ///   - context: What the value is and which row it belongs to (`signing-key:<kid>`, …).
    /// - Returns: The sealed value, with a fresh random 12-byte nonce.
    /// - Throws: AES-GCM's error, or `internal_error` when it produced no combined form.
    public func seal(_ plaintext: [UInt8], context: String) throws -> String {
        let box = try AES.GCM.seal(plaintext, using: encryptionKey, authenticating: Data(context.utf8))
        guard let combined = box.combined else { throw GatehouseError.internalError(cause: "AES-GCM produced no combined form") }
        return "v1." + Base64URL.encode(Array(combined))
    }

    /// Opens a value made by ``seal(_:context:)`` with the same `context`.
    /// - Parameters:
    ///   - sealed: The `v1.` value.
    ///   - context: The context it was sealed with.
    /// - Returns: The plaintext.
    /// - Throws: `internal_error` for an unknown format; AES-GCM's authentication error when the value
    ///   was altered, sealed under another master key, or sealed for another context.
    public func open(_ sealed: String, context: String) throws -> [UInt8] {
        guard sealed.hasPrefix("v1."), let combined = Base64URL.decode(sealed.dropFirst(3)) else {
            throw GatehouseError.internalError(cause: "sealed value has an unknown format")
        }
        let box = try AES.GCM.SealedBox(combined: combined)
        return Array(try AES.GCM.open(box, using: encryptionKey, authenticating: Data(context.utf8)))
    }

    /// Seals `plaintext` into raw bytes (nonce | ciphertext | tag), for a value that must travel in
    /// another encoding than ``seal(_:context:)``'s (Cognito's `SECRET_BLOCK` is standard base64).
    /// - Parameters:
    ///   - plaintext: The secret.
    ///   - context: Bound as associated data.
    /// - Returns: The sealed bytes.
    /// - Throws: AES-GCM's error, or `internal_error` when it produced no combined form.
    public func sealBytes(_ plaintext: [UInt8], context: String) throws -> [UInt8] {
        let box = try AES.GCM.seal(plaintext, using: encryptionKey, authenticating: Data(context.utf8))
        guard let combined = box.combined else { throw GatehouseError.internalError(cause: "AES-GCM produced no combined form") }
        return Array(combined)
    }

    /// Opens bytes made by ``sealBytes(_:context:)`` with the same `context`.
    /// - Parameters:
    ///   - sealed: The sealed bytes.
    ///   - context: The context they were sealed with.
    /// - Returns: The plaintext.
    /// - Throws: AES-GCM's error when the bytes were altered or sealed otherwise.
    public func openBytes(_ sealed: [UInt8], context: String) throws -> [UInt8] {
        let box = try AES.GCM.SealedBox(combined: sealed)
        return Array(try AES.GCM.open(box, using: encryptionKey, authenticating: Data(context.utf8)))
    }

    /// HMAC-SHA256 under the hashing key, base64url: for one-time codes and rate-limit bucket keys.
    /// - Parameter parts: The values hashed, each followed by a zero byte so `("ab", "c")` and
    ///   `("a", "bc")` differ.
    /// - Returns: 43 characters of base64url.
    public func keyedHash(_ parts: String...) -> String {
        var mac = HMAC<SHA256>(key: hashingKey)
        for part in parts {
            mac.update(data: Data(part.utf8))
            mac.update(data: [0])
        }
        return Base64URL.encode(Array(mac.finalize()))
    }
}

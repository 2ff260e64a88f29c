import Foundation

/// An admin API key as stored: its name and the SHA-256 of the key, never the key.
public struct AdminKeyRecord: Sendable, Equatable {
    /// A UUIDv7.
    public var id: String
    /// The operator's name for it (unique among live keys).
    public var name: String
    /// The base64url SHA-256 of the key (``AdminKey/hash(_:)``).
    public var keyHash: String
    /// When it was created.
    public var createdAt: Date
    /// When it was last used, if ever.
    public var lastUsedAt: Date?
    /// When it was revoked; a revoked key is refused.
    public var revokedAt: Date?

    /// A key record.
    /// - Parameters:
    ///   - id: A UUIDv7.
    ///   - name: The operator's name for it.
    ///   - keyHash: The key's hash.
    ///   - createdAt: When it was created.
    ///   - lastUsedAt: When it was last used.
    ///   - revokedAt: When it was revoked.
    public init(id: String, name: String, keyHash: String, createdAt: Date, lastUsedAt: Date? = nil, revokedAt: Date? = nil) {
        self.id = id
        self.name = name
        self.keyHash = keyHash
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.revokedAt = revokedAt
    }
}

import Foundation

/// A registered passkey (a WebAuthn credential) of a user.
public struct PasskeyRecord: Sendable, Equatable {
    /// The credential id, base64url: the key the authenticator presents.
    public var id: String
    /// The user it signs in.
    public var userID: String
    /// The COSE public key as registered (CBOR, base64url).
    public var publicKey: String
    /// The last signature counter seen (0 for authenticators that keep none).
    public var signCount: Int64
    /// The transports the authenticator reported (`internal`, `hybrid`, `usb`, …).
    public var transports: [String]
    /// Whether the credential may be synced (backup eligible).
    public var backupEligible: Bool
    /// Whether it was synced at its last use.
    public var backedUp: Bool
    /// A name the user gave it.
    public var name: String
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in.
    public var lastUsedAt: Date?
    /// When a signature counter that went backwards flagged it (a possible clone); a flagged passkey is refused.
    public var flaggedAt: Date?

    /// A passkey as stored.
    /// - Parameters:
    ///   - id: The credential id, base64url.
    ///   - userID: The user.
    ///   - publicKey: The COSE public key, base64url.
    ///   - signCount: The signature counter.
    ///   - transports: The reported transports.
    ///   - backupEligible: Whether it may be synced.
    ///   - backedUp: Whether it is synced.
    ///   - name: Its name.
    ///   - createdAt: When it was registered.
    ///   - lastUsedAt: When it last signed in.
    ///   - flaggedAt: When a counter regression flagged it.
    public init(
        id: String,
        userID: String,
        publicKey: String,
        signCount: Int64,
        transports: [String],
        backupEligible: Bool,
        backedUp: Bool,
        name: String,
        createdAt: Date,
        lastUsedAt: Date? = nil,
        flaggedAt: Date? = nil
    ) {
        self.id = id
        self.userID = userID
        self.publicKey = publicKey
        self.signCount = signCount
        self.transports = transports
        self.backupEligible = backupEligible
        self.backedUp = backedUp
        self.name = name
        self.createdAt = createdAt
        self.lastUsedAt = lastUsedAt
        self.flaggedAt = flaggedAt
    }
}

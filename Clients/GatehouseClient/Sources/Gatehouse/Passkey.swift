import Foundation

/// One of the signed-in user's passkeys (`GET /me/passkeys`), for a "Passkeys" list in the account settings.
public struct Passkey: Codable, Sendable, Equatable, Identifiable {
    /// The credential id (base64url); pass it to ``GatehouseClient/deletePasskey(id:)``.
    public var id: String
    /// The name given at registration, or "Passkey".
    public var name: String
    /// When it was registered.
    public var createdAt: Date
    /// When it last signed in; `nil` when it never has.
    public var lastUsedAt: Date?
    /// How its authenticator can be reached (`internal`, `hybrid` …), as it said at registration.
    public var transports: [String]
    /// Whether it is synced (iCloud Keychain, Google Password Manager), so it survives the loss of one device.
    public var backedUp: Bool
    /// Whether its signature counter went backwards, a sign that it may have been cloned: it is refused for sign-in
    /// until it is removed. Show "Blocked — remove it".
    public var flagged: Bool
}

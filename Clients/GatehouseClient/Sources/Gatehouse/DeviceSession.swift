import Foundation

/// One of the signed-in user's sessions, as ``GatehouseClient/sessions()`` lists them: a device that is
/// signed in, to show in a "where you're signed in" screen with a "Sign out" button each
/// (``GatehouseClient/endSession(id:)``).
public struct DeviceSession: Codable, Sendable, Equatable, Identifiable {
    /// The session's id, for ``GatehouseClient/endSession(id:)``.
    public var id: String
    /// When it signed in.
    public var createdAt: Date
    /// When its refresh token was last used, or `nil` if never.
    public var lastRefreshedAt: Date?
    /// The device in a few words ("Safari on iPhone", "Gatehouse SDK on iOS"); a hint from the `User-Agent`
    /// its client sent, not proof, and "Unknown device" when there was none.
    public var device: String
    /// Roughly where it was: the client's IPv4 /24 or IPv6 /48 (`203.0.113.0/24`), or `nil` when unknown.
    public var clientAddress: String?
    /// How it signed in: `password`, `google`, `apple`, `phone`, `passkey`, `password+otp`, …
    public var method: String
    /// The tokens' `amr` values (RFC 8176): `pwd`, `fed`, `sms`, `hwk`, `otp`, `mfa`.
    public var amr: [String]
    /// Whether it is this client's own session.
    public var current: Bool

    /// When it was last used: its last refresh, or its sign-in.
    public var lastActiveAt: Date { lastRefreshedAt ?? createdAt }
}

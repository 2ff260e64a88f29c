import Foundation

/// One of a user's sessions as their session list shows it.
public struct SessionView: Sendable, Equatable {
    /// The session id (the tokens' `origin_jti`), for ending it.
    public var id: String
    /// When it signed in.
    public var createdAt: Date
    /// When its refresh token was last exchanged, or `nil` if never.
    public var lastRefreshedAt: Date?
    /// The device in a few words (``DeviceName``), e.g. "Safari on iPhone".
    public var device: String
    /// The client's coarse address (an IPv4 /24 or an IPv6 /48), if known.
    public var clientAddress: String?
    /// How it signed in: the session's method (`password`, `google`, `apple`, `phone`, `passkey`, `password+otp`).
    public var method: String
    /// The same as the tokens' `amr` claim (RFC 8176): `pwd`, `fed`, `sms`, `hwk`, `otp`, `mfa`.
    public var amr: [String]
    /// Whether it is the session of the access token that asked.
    public var current: Bool

    /// The view of `session` for the caller whose own session is `currentID`.
    /// - Parameters:
    ///   - session: The stored session.
    ///   - currentID: The caller's session id.
    public init(_ session: SessionRecord, currentID: String) {
        self.id = session.id
        self.createdAt = session.createdAt
        self.lastRefreshedAt = session.lastRefreshedAt
        self.device = DeviceName.describe(session.userAgent)
        self.clientAddress = session.clientAddress
        self.method = session.method
        self.amr = TokenService.authenticationMethods(session.method)
        self.current = session.id == currentID
    }

    /// When it was last used: its last refresh, or its sign-in.
    public var lastActiveAt: Date { lastRefreshedAt ?? createdAt }
}

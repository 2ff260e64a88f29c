import Foundation

/// What happened to the session, for UI that follows it.
///
/// A struct with the known events as static values, not an enum, so a later SDK version can add events (say,
/// a password recovery) without breaking an app's build: a `switch` over it needs a `default:`, where events the
/// app does not handle land. `case .signedIn:` and `==` work as with an enum.
///
/// ```swift
/// switch change.event {
/// case .initialSession, .signedIn, .tokenRefreshed: show(change.session)
/// case .signedOut, .userDeleted, .sessionExpired: showSignIn()
/// default: break   // an event a later SDK version added
/// }
/// ```
public struct AuthEvent: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The event's name (`signedIn`), for logs.
    public let rawValue: String

    /// The event named `rawValue`.
    ///
    /// - Parameter rawValue: The name, e.g. `signedIn`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// The first element of ``GatehouseClient/authStateChanges``: the state when the stream began.
    public static let initialSession = AuthEvent(rawValue: "initialSession")
    /// A sign-in of any kind stored a new session.
    public static let signedIn = AuthEvent(rawValue: "signedIn")
    /// The user signed out (on this device, or everywhere).
    public static let signedOut = AuthEvent(rawValue: "signedOut")
    /// The tokens were refreshed; the user is still signed in.
    public static let tokenRefreshed = AuthEvent(rawValue: "tokenRefreshed")
    /// The server refused the refresh token (revoked, expired or reused), or the access token a refresh had
    /// just issued: sign in again.
    public static let sessionExpired = AuthEvent(rawValue: "sessionExpired")
    /// The account was deleted with ``GatehouseClient/deleteAccount()``.
    public static let userDeleted = AuthEvent(rawValue: "userDeleted")

    /// The name (`signedIn`).
    public var description: String { rawValue }
}

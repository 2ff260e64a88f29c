import Foundation

/// Where a code was sent, masked (`a***@e***.com`).
///
/// Returned by ``GatehouseClient/signUp(email:password:fullName:)``, ``GatehouseClient/resendCode(email:)`` and
/// ``GatehouseClient/forgotPassword(email:)``. The server answers the same way for addresses it does not know, so
/// show it as "if this address has an account, a code is on its way to …", never as proof that an account exists.
public struct CodeDelivery: Codable, Sendable, Equatable {
    /// How the code travels; always `EMAIL` today.
    public var medium: String
    /// The masked address the code went to, safe to show on screen.
    public var destination: String
}

/// The answer to a sign-up (the same shape whether or not the address was already registered).
///
/// The account cannot sign in until the emailed code is confirmed with
/// ``GatehouseClient/confirmSignUp(email:code:)``.
public struct SignUpResult: Codable, Sendable, Equatable {
    /// The new user's id (`sub`). For an address that was already registered this is a random id the
    /// server keeps nowhere, so do not store it as the user's identity; read ``Profile/sub`` after sign-in.
    public var userSub: String
    /// Whether the account may already sign in; `false` after a normal sign-up (a code was mailed).
    public var userConfirmed: Bool
    /// Where the confirmation code went.
    public var codeDelivery: CodeDelivery
}

/// The app's profile of the signed-in user (`GET /me`).
public struct Profile: Codable, Sendable, Equatable {
    /// A way to sign in that belongs to the account.
    public struct LinkedIdentity: Codable, Sendable, Equatable {
        /// `password`, `google` or `apple`.
        public var provider: String
        /// When the identity was first linked to the account.
        public var linkedAt: Date
    }

    /// The user's stable id, the `sub` claim of their tokens; key your own data on this, not on the email.
    public var sub: String
    /// The account's email address; `nil` when the account has none (a social sign-in that shared no address).
    public var email: String?
    /// Whether the address was proven: a confirmed code, or a provider that vouched for it.
    public var emailVerified: Bool
    /// The display name; `nil` when none is known. Change it with ``GatehouseClient/updateProfile(fullName:)``.
    public var fullName: String?
    /// Every way the user can sign in (email and password, Google, Apple).
    public var identities: [LinkedIdentity]
    /// When the app profile was created (just in time, on the account's first `GET /me`).
    public var createdAt: Date
    /// When the profile last changed.
    public var updatedAt: Date
}

/// What happened to the session, for UI that follows it.
public enum AuthEvent: Sendable, Equatable {
    /// The first element of ``GatehouseClient/authStateChanges``: the state when the stream began.
    case initialSession
    /// A sign-in of any kind stored a new session.
    case signedIn
    /// The user signed out (on this device, or everywhere).
    case signedOut
    /// The tokens were refreshed; the user is still signed in.
    case tokenRefreshed
    /// The server refused the refresh token (revoked, expired or reused): sign in again.
    case sessionExpired
    /// The account was deleted with ``GatehouseClient/deleteAccount()``.
    case userDeleted
}

import Foundation

/// What a step-up check needs to know about the caller: how their session signed in and when, and
/// every way into their account.
public struct StepUpFacts: Sendable, Equatable {
    /// How the session signed in (refreshes keep it).
    public var session: SignInMethod
    /// When the session signed in.
    public var authenticatedAt: Date
    /// Every way into the account (its identities, and a password if it has one).
    public var account: Set<SignInMethod>

    /// Whether the account has a password (so the current password can stand in for a new sign-in).
    public var hasPassword: Bool { account.contains(.password) }

    /// - Parameters:
    ///   - session: How the session signed in.
    ///   - authenticatedAt: When.
    ///   - account: Every way into the account.
    public init(session: SignInMethod, authenticatedAt: Date, account: Set<SignInMethod>) {
        self.session = session
        self.authenticatedAt = authenticatedAt
        self.account = account
    }
}

import Foundation

/// One element of ``GatehouseClient/authStateChanges``: what happened and the session as it is now.
public struct AuthStateChange: Sendable, Equatable {
    /// What happened; the first element of every stream is ``AuthEvent/initialSession``.
    public var event: AuthEvent
    /// The session after the event; `nil` when signed out.
    public var session: Session?
    /// Set only on an ``AuthEvent/initialSession`` whose store could not be read (the Keychain before the
    /// first unlock): the state is unknown, not "signed out". Call ``GatehouseClient/restore()`` again later.
    public var restoreFailure: StorageFailure?

    /// A change from its parts.
    ///
    /// - Parameters:
    ///   - event: What happened.
    ///   - session: The session after it.
    ///   - restoreFailure: The store's failure, for an initial state that could not be read.
    public init(event: AuthEvent, session: Session?, restoreFailure: StorageFailure? = nil) {
        self.event = event
        self.session = session
        self.restoreFailure = restoreFailure
    }

    /// The signed-in user from ``session``'s ID token (no network), or `nil`.
    public var user: User? { session.flatMap { User(idToken: $0.idToken) } }
}

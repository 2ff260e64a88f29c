/// Something that happened to a user's state, told to whoever keeps a copy of that state (this
/// process's caches today; other instances once a cross-instance publisher subscribes).
///
/// Use cases publish these after the change committed; nothing else invalidates a cache.
public enum DomainEvent: Sendable, Hashable {
    /// These sessions ended (sign-out, refresh-token reuse, lifetime, password change or reset).
    case sessionsEnded(ids: [String])
    /// Some of the user's sessions ended and which ones is not known by id here (Cognito names its
    /// sessions differently in the liveness cache): what is cached about the user's sessions is dropped.
    case sessionsChanged(sub: String)
    /// The user no longer exists (deleted, or an unconfirmed sign-up replaced by the address's owner).
    case userDeleted(sub: String)
    /// The user's profile or the facts it is seeded from changed.
    case profileChanged(sub: String)
    /// The signing keys were rotated (`gatehouse keys rotate`, on any host): reload them.
    case signingKeysChanged
}

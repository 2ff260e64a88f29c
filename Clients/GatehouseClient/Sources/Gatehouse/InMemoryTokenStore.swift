import Foundation

/// Keeps the session in memory only (tests, or apps that want users to sign in every launch).
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var session: Session?

    /// A store holding `session` to begin with.
    ///
    /// - Parameter session: The session to start from; `nil` (the default) for none.
    public init(_ session: Session? = nil) { self.session = session }

    /// The session held in memory.
    ///
    /// - Returns: The session, or `nil` when none is held.
    /// - Throws: Never; the signature is the protocol's.
    public func load() throws -> Session? { lock.withLock { session } }
    /// Holds `session` in memory.
    ///
    /// - Parameter session: The session to keep.
    /// - Throws: Never; the signature is the protocol's.
    public func save(_ session: Session) throws { lock.withLock { self.session = session } }
    /// Forgets the session.
    ///
    /// - Throws: Never; the signature is the protocol's.
    public func clear() throws { lock.withLock { session = nil } }
}

import Foundation

/// Where the session is kept between launches.
///
/// The client calls ``load()`` once, on first use, and then ``save(_:)`` after every sign-in and refresh
/// (the refresh token rotates, so a store that drops a save loses the session) and ``clear()`` on sign-out,
/// deletion or an expired session. Implement it to keep the session somewhere the built-in stores do not.
public protocol TokenStore: Sendable {
    /// The stored session.
    ///
    /// - Returns: The session, or `nil` when none is stored.
    /// - Throws: When the storage cannot be read; the client passes the error on to its caller.
    func load() throws -> Session?
    /// Replaces the stored session.
    ///
    /// - Parameter session: The session to keep.
    /// - Throws: When the storage cannot be written. The client keeps the new session in memory regardless
    ///   (a refresh token the server has rotated must not be lost), writes it again before its next use, and
    ///   reports ``GatehouseError/storage(_:)`` from the sign-in or ``GatehouseClient/refresh()`` that made it.
    func save(_ session: Session) throws
    /// Removes the stored session; removing none is not an error.
    ///
    /// - Throws: When the storage cannot be changed.
    func clear() throws
}

import Logging

/// A provider that can show a user their own sessions and end one of them. The embedded pool is one;
/// Amazon Cognito keeps no per-device session list without device tracking, so there the use case
/// answers `not_supported`.
public protocol SessionListStrategy: Sendable {
    /// The caller's sessions that still work: not ended, within their absolute lifetime, and with a
    /// refresh token that has not run out.
    /// - Parameter principal: The caller.
    /// - Returns: The sessions, in no particular order.
    /// - Throws: A store error.
    func liveSessions(principal: Principal) async throws -> [SessionRecord]

    /// Ends one of the caller's own sessions, as signing out of it does: its access and refresh
    /// tokens stop working once the returned events are published.
    /// - Parameters:
    ///   - id: The session id.
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: The sessions ended, to publish.
    /// - Throws: `not_found` for an unknown id, another user's session or one already ended (one answer for all three).
    func endOwnSession(id: String, principal: Principal, logger: Logger) async throws -> [DomainEvent]
}

import Logging

/// A user's own sessions: the list (`GET /me/sessions`) and ending one of them
/// (`DELETE /me/sessions/{id}`), which is signing out of that session wherever it is: the ended
/// session is published (``DomainEvent/sessionsEnded(ids:)``), so every instance's caches drop it.
public struct AccountSessions: Sendable {
    let strategy: (any SessionListStrategy)?
    let domainEvents: DomainEvents

    /// The longest session id looked up; session ids are UUIDs (36 characters).
    static let maximumIDLength = 64

    /// Creates the use case.
    /// - Parameters:
    ///   - strategy: The provider's session list, or `nil` when it has none (Amazon Cognito).
    ///   - domainEvents: Where ended sessions are published.
    public init(strategy: (any SessionListStrategy)?, domainEvents: DomainEvents) {
        self.strategy = strategy
        self.domainEvents = domainEvents
    }

    func enabled() throws -> any SessionListStrategy {
        guard let strategy else {
            throw GatehouseError(
                .notSupported,
                "This server's identity provider (Amazon Cognito) keeps no list of a user's sessions.",
                cause: "no session list strategy"
            )
        }
        return strategy
    }

    /// The caller's live sessions, most recently used first; the caller's own is marked `current`.
    /// - Parameter principal: The caller.
    /// - Returns: The sessions.
    /// - Throws: `not_supported` on a provider without a session list, a store error.
    public func list(for principal: Principal) async throws -> [SessionView] {
        let sessions = try await enabled().liveSessions(principal: principal)
        return sessions.map { SessionView($0, currentID: principal.sessionID) }
            .sorted { ($0.lastActiveAt, $0.id) > ($1.lastActiveAt, $1.id) }
    }

    /// Ends one of the caller's sessions (their own current one included: that is signing out).
    /// - Parameters:
    ///   - id: The session id from the list.
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Throws: `not_found` (unknown, another user's or already ended: one answer), `not_supported`.
    public func end(id: String, for principal: Principal, logger: Logger) async throws {
        let strategy = try enabled()
        let plausible = !id.isEmpty && id.utf8.count <= Self.maximumIDLength && id.utf8.allSatisfy { $0 == UInt8(ascii: "-") || isHexDigit($0) }
        guard plausible else { throw Self.notFound }
        domainEvents.publish(try await strategy.endOwnSession(id: id, principal: principal, logger: logger))
    }

    /// The one answer for a session that is not the caller's to end.
    static var notFound: GatehouseError { GatehouseError(.notFound, "No such session.") }

    private func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte)
            || (UInt8(ascii: "A")...UInt8(ascii: "F")).contains(byte)
    }
}

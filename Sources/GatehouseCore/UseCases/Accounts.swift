import Logging

/// Account deletion (DELETE /me): the provider removes the user and everything of theirs in one
/// transaction; then the user's tokens stop working here at once (``DomainEvent/userDeleted(sub:)``)
/// and their Apple tokens are revoked (the queue retries if Apple cannot be reached).
public struct Accounts: Sendable {
    let backend: any AccountBackend
    let appleVault: AppleTokenVault?
    let domainEvents: DomainEvents

    /// Creates the use case.
    /// - Parameters:
    ///   - backend: The active provider's account strategy.
    ///   - appleVault: Set when Apple credentials are configured.
    ///   - domainEvents: Where the deletion is published.
    public init(backend: any AccountBackend, appleVault: AppleTokenVault?, domainEvents: DomainEvents) {
        self.backend = backend
        self.appleVault = appleVault
        self.domainEvents = domainEvents
    }

    /// Deletes the caller's account.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Throws: A ``GatehouseError`` when nothing was deleted (the client may retry).
    public func delete(for principal: Principal, logger: Logger) async throws {
        let queued = try await backend.deleteAccount(principal: principal, logger: logger)
        domainEvents.publish(.userDeleted(sub: principal.sub))
        logger.info("account deleted", metadata: ["user.sub": .string(principal.sub)])
        if let appleVault, !queued.isEmpty { await appleVault.attempt(ids: queued, logger: logger) }
    }
}

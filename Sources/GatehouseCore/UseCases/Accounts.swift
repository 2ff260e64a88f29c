import Logging

/// Account deletion (DELETE /me): a sensitive action, so ``StepUp`` first; then the provider removes
/// the user and everything of theirs in one transaction; then the user's tokens stop working here at
/// once (``DomainEvent/userDeleted(sub:)``) and their Apple tokens are revoked (the queue retries if
/// Apple cannot be reached).
public struct Accounts: Sendable {
    let strategy: any AccountStrategy
    let appleVault: AppleTokenVault?
    let domainEvents: DomainEvents
    let stepUp: StepUp

    /// Creates the use case.
    /// - Parameters:
    ///   - strategy: The active provider's account strategy.
    ///   - appleVault: Set when Apple credentials are configured.
    ///   - domainEvents: Where the deletion is published.
    ///   - stepUp: The check a deletion passes first.
    public init(strategy: any AccountStrategy, appleVault: AppleTokenVault?, domainEvents: DomainEvents, stepUp: StepUp) {
        self.strategy = strategy
        self.appleVault = appleVault
        self.domainEvents = domainEvents
        self.stepUp = stepUp
    }

    /// Deletes the caller's account.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The account's password, if the client sent it (step-up).
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `reauthentication_required`, or another ``GatehouseError`` when nothing was deleted
    ///   (the client may retry).
    public func delete(for principal: Principal, currentPassword: String? = nil, client: ClientInfo, logger: Logger) async throws {
        try await stepUp.require(principal: principal, currentPassword: currentPassword, client: client, logger: logger)
        let queued = try await strategy.deleteAccount(principal: principal, logger: logger)
        domainEvents.publish(.userDeleted(sub: principal.sub))
        logger.info("account deleted", metadata: ["user.sub": .string(principal.sub)])
        if let appleVault, !queued.isEmpty { await appleVault.attempt(ids: queued, logger: logger) }
    }

    /// Deletes a user at an operator's request (the admin API, `gatehouse users delete`): the same
    /// deletion as ``delete(for:currentPassword:client:logger:)``, without the step-up.
    /// - Parameters:
    ///   - userID: The sub.
    ///   - logger: The caller's logger.
    /// - Throws: A store error (nothing changed).
    public func delete(userID: String, logger: Logger) async throws {
        let principal = Principal(sub: userID, username: userID, sessionID: "", clientID: "", scope: "", accessToken: "")
        let queued = try await strategy.deleteAccount(principal: principal, logger: logger)
        domainEvents.publish(.userDeleted(sub: userID))
        logger.info("account deleted by an operator", metadata: ["user.sub": .string(userID)])
        if let appleVault, !queued.isEmpty { await appleVault.attempt(ids: queued, logger: logger) }
    }
}

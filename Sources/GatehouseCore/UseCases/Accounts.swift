import Logging

/// Account deletion (DELETE /me): a sensitive action, so ``StepUp`` first; then the provider deletes
/// the user upstream, if it keeps them there; then one transaction removes what every provider shares
/// (``AccountDeletion``) and what only the provider keeps; then the user's tokens stop working here at
/// once (``DomainEvent/userDeleted(sub:)``) and their Apple tokens are revoked (the queue retries if
/// Apple cannot be reached).
public struct Accounts: Sendable {
    let strategy: any AccountStrategy
    let store: any GatehouseStore
    let appleVault: AppleTokenVault?
    let domainEvents: DomainEvents
    let stepUp: StepUp

    /// Creates the use case.
    /// - Parameters:
    ///   - strategy: The active provider's account strategy.
    ///   - store: Where the deletion's transaction runs.
    ///   - appleVault: Set when Apple credentials are configured.
    ///   - domainEvents: Where the deletion is published.
    ///   - stepUp: The check a deletion passes first.
    public init(strategy: any AccountStrategy, store: any GatehouseStore, appleVault: AppleTokenVault?, domainEvents: DomainEvents, stepUp: StepUp) {
        self.strategy = strategy
        self.store = store
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
        try await remove(principal, logger: logger)
        logger.info("account deleted", metadata: ["user.sub": .string(principal.sub)])
    }

    /// Deletes a user at an operator's request (the admin API, `gatehouse users delete`): the same
    /// deletion as ``delete(for:currentPassword:client:logger:)``, without the step-up.
    /// - Parameters:
    ///   - userID: The sub.
    ///   - logger: The caller's logger.
    /// - Throws: A store error (nothing changed).
    public func delete(userID: String, logger: Logger) async throws {
        let principal = Principal(sub: userID, username: userID, sessionID: "", clientID: "", scope: "", accessToken: "")
        try await remove(principal, logger: logger)
        logger.info("account deleted by an operator", metadata: ["user.sub": .string(userID)])
    }

    private func remove(_ principal: Principal, logger: Logger) async throws {
        let sub = principal.sub
        let upstream = try await strategy.deleteUpstreamAccount(principal: principal, logger: logger)
        let deletion = AccountDeletion(appleVault: appleVault)
        let origin = AuditOrigin.current
        let queued: [String]
        do {
            queued = try await store.write { tx in
                let queued = try await deletion.removeLocalRecords(of: sub, in: tx)
                try await strategy.removeAccountRecords(of: sub, origin: origin, in: tx)
                return queued
            }
        } catch {
            if upstream {
                logger.critical(
                    "the user was deleted at the identity provider but its local records were not",
                    metadata: ["user.sub": .string(sub), "error": .string(String(describing: error))]
                )
            }
            throw error
        }
        domainEvents.publish(.userDeleted(sub: sub))
        if let appleVault, !queued.isEmpty { await appleVault.attempt(ids: queued, logger: logger) }
    }
}

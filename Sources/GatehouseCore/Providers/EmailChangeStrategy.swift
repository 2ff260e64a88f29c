import Logging

/// A provider that can move a signed-in user to a new email address once a code mailed there proves
/// it. The embedded pool is one; with Amazon Cognito the use case answers `not_supported` (see
/// docs/accounts.md for why UpdateUserAttributes and VerifyUserAttribute cannot keep these rules).
public protocol EmailChangeStrategy: Sendable {
    /// Mails a code to `email` for the caller's account, replacing any change pending: or, when the
    /// address belongs to another account, mails its owner a notice instead and makes the pending
    /// change one no code redeems. The same work and the same answer either way.
    /// - Parameters:
    ///   - principal: The caller (step-up and quotas already passed).
    ///   - email: The new address.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `invalid_request` when `email` is already the account's address, a store error.
    func startEmailChange(principal: Principal, email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery

    /// Redeems the code of the pending change: the account's address becomes the new one (verified),
    /// a notice goes to the old one.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - code: The normalised code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: What changed, to publish.
    /// - Throws: `code_mismatch`, `code_expired`, `conflict` when the address now belongs to another confirmed account.
    func confirmEmailChange(principal: Principal, code: String, client: ClientInfo, logger: Logger) async throws -> [DomainEvent]
}

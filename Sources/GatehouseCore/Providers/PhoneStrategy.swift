import Logging

/// The phone-number flows of an identity provider: sign-in with an SMS code, and adding a number to a
/// signed-in account. Inputs arrive checked by ``PhoneSignIn`` (a parsed number the country policy
/// allows, a code without separators), which also applies the SMS quotas and the code limits; every
/// error is a ``GatehouseError``.
public protocol PhoneStrategy: Sendable {
    /// Refuses at once, before any input is checked or any quota used, when the provider cannot offer
    /// phone sign-in at all.
    /// - Throws: `provider_disabled` with the reason.
    func checkPhoneAvailable() throws

    /// Stores a sign-in code for the number and queues its text, in one transaction. The answer is the
    /// same whether or not the number has an account (signing in creates one).
    /// - Parameters:
    ///   - number: The number.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `provider_disabled` where phone sign-in cannot be offered.
    func sendSignInCode(to number: PhoneNumber, client: ClientInfo, logger: Logger) async throws -> CodeDelivery

    /// Redeems a sign-in code: signs in the account with that verified number, or creates one.
    /// - Parameters:
    ///   - number: The number.
    ///   - code: The normalised code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The new session's tokens (with `is_new_user`) and what changed.
    /// - Throws: `code_mismatch`, `code_expired`.
    func verifySignInCode(number: PhoneNumber, code: String, client: ClientInfo, logger: Logger) async throws -> ProviderSignInOutcome

    /// Stores a code that adds `number` to the caller's account and queues its text. The answer is the
    /// same whether or not another account has the number.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - number: The number to add.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `unauthorized` when the user is gone.
    func sendLinkCode(principal: Principal, number: PhoneNumber, client: ClientInfo, logger: Logger) async throws -> CodeDelivery

    /// Redeems a code from ``sendLinkCode(principal:number:client:logger:)``: the number becomes the
    /// account's verified number (replacing an earlier one).
    /// - Parameters:
    ///   - principal: The caller.
    ///   - number: The number the code was sent to.
    ///   - code: The normalised code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: What changed, to publish.
    /// - Throws: `code_mismatch`, `code_expired`, `conflict` when another account has the number.
    func verifyLinkCode(
        principal: Principal,
        number: PhoneNumber,
        code: String,
        client: ClientInfo,
        logger: Logger
    ) async throws
        -> [DomainEvent]
}

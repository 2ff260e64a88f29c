import Logging

/// Changing a signed-in user's email address (`POST /me/email`, `POST /me/email/verify`). The address
/// is how the account is recovered, so the request passes ``StepUp/requireForEmailChange(principal:currentPassword:client:logger:)``
/// first: an account with a password must send it; one without must have signed in recently by its
/// strongest method. Then the sign-up rules: the same answer (and the same mail quotas: a cool-down
/// per address, hourly and daily caps per address and per client, and per account) whatever the
/// address, the code in the new mailbox, a notice to the owner instead when the address is taken. The
/// old address keeps working until the code is entered; then it gets a notice, and the ID token's
/// `email` follows at the next refresh (``DomainEvent/profileChanged(sub:)`` drops cached profiles
/// on every instance).
public struct EmailChange: Sendable {
    let strategy: (any EmailChangeStrategy)?
    let limiter: RateLimiter
    let stepUp: StepUp
    let domainEvents: DomainEvents

    /// Creates the use case.
    /// - Parameters:
    ///   - strategy: The provider's email change, or `nil` when it has none (Amazon Cognito).
    ///   - limiter: The mail quotas and the code limits.
    ///   - stepUp: The check a change passes first.
    ///   - domainEvents: Where the change is published.
    public init(strategy: (any EmailChangeStrategy)?, limiter: RateLimiter, stepUp: StepUp, domainEvents: DomainEvents) {
        self.strategy = strategy
        self.limiter = limiter
        self.stepUp = stepUp
        self.domainEvents = domainEvents
    }

    func enabled() throws -> any EmailChangeStrategy {
        guard let strategy else {
            throw GatehouseError(
                .notSupported,
                "Changing the email address is not available with this server's identity provider (Amazon Cognito).",
                cause: "no email change strategy"
            )
        }
        return strategy
    }

    /// Mails a code that moves the caller's account to `email` (the same answer for every address).
    /// - Parameters:
    ///   - principal: The caller.
    ///   - rawEmail: The new address as typed.
    ///   - currentPassword: The account's password (required when it has one).
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `invalid_request`, `reauthentication_required`, `invalid_credentials`, `too_many_requests`, `not_supported`.
    public func start(
        for principal: Principal,
        email rawEmail: String,
        currentPassword: String?,
        client: ClientInfo,
        logger: Logger
    ) async throws -> CodeDelivery {
        let strategy = try enabled()
        let email = try EmailAddress(rawEmail)
        try await stepUp.requireForEmailChange(principal: principal, currentPassword: currentPassword, client: client, logger: logger)
        let limits = limiter.settings
        let mail = limiter.mailBuckets(emailKey: email.key, client: client)
        // The account's own caps: one account cannot spray codes or notices across many addresses.
        let account = "email-change:" + principal.sub
        let accountBuckets = [limiter.bucket(limits.mailPerAddressHourly, account), limiter.bucket(limits.mailPerAddressDaily, account)]
        try await limiter.consume([mail.client] + mail.address + accountBuckets)
        return try await strategy.startEmailChange(principal: principal, email: email, client: client, logger: logger)
    }

    /// Redeems the mailed code: the account's address becomes the new one.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - code: The code as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `code_mismatch`, `code_expired`, `conflict`, `too_many_requests`, `not_supported`.
    public func confirm(for principal: Principal, code: String, client: ClientInfo, logger: Logger) async throws {
        let strategy = try enabled()
        let code = InputRules.code(code)
        // Wrong codes count against the code (its five tries) and the guessing client, as sign-up's do.
        let buckets = [limiter.bucket(limiter.settings.codePerClient, client: client)]
        let changed = try await limiter.guarding(buckets, resetOnSuccess: [], failureCodes: [.codeMismatch]) {
            try await strategy.confirmEmailChange(principal: principal, code: code, client: client, logger: logger)
        }
        domainEvents.publish(changed)
    }
}

import Logging

/// Email and password: sign-up, confirmation, resending the code, sign-in, forgotten and changed
/// passwords. Owns what every provider shares: the input rules (address, display name, code, the
/// provider's password rules checked before any work), the throttles and mail quotas, the sign-in
/// metrics, and publishing what a flow ended. The provider's strategy does the work against its own
/// backing.
///
/// A verified password comes back from the strategy as a ``SignInProof``: the pool's user, whose
/// session the ``SessionIssuer`` starts (with the second-factor gate), or Cognito's tokens.
///
/// The order is part of the security (HardeningTests pin it): a client past its share of the
/// hashing queue is refused before any database work (``PasswordStrategy/admit(client:)``), and an
/// attempt is reserved against the failure limits before the password or code is checked, so
/// concurrent guesses get no more evaluations than sequential ones.
public struct PasswordAuthentication: Sendable {
    let strategy: any PasswordStrategy
    let limiter: RateLimiter
    let events: any AuthEventObserver
    let domainEvents: DomainEvents
    /// Starts the sessions of local subjects; `nil` where the provider issues its own tokens (Cognito).
    let issuer: SessionIssuer?

    /// Creates the use case.
    /// - Parameters:
    ///   - strategy: The active provider's password strategy.
    ///   - issuer: Starts the sessions of the subjects the strategy verifies; `nil` for Cognito.
    ///   - limiter: The throttles and quotas.
    ///   - events: Where sign-in outcomes are counted.
    ///   - domainEvents: Where what a flow changed is published.
    public init(
        strategy: any PasswordStrategy,
        issuer: SessionIssuer?,
        limiter: RateLimiter,
        events: any AuthEventObserver,
        domainEvents: DomainEvents
    ) {
        self.strategy = strategy
        self.issuer = issuer
        self.limiter = limiter
        self.events = events
        self.domainEvents = domainEvents
    }

    /// The tokens a verified credential comes to.
    func tokens(for proof: SignInProof, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        switch proof {
        case .upstreamTokens(let tokens):
            return tokens
        case .subject(let subject):
            return try await SessionIssuer.required(issuer).start(subject, client: client, logger: logger)
        }
    }

    var limits: RateLimitSettings { limiter.settings }

    /// Refuses (after the refusal delay) a client past its share of the hashing queue.
    func admit(_ client: ClientInfo) async throws {
        try await limiter.holdingRefusals { try strategy.admit(client: client) }
    }

    /// The code limits. Guesses count against the code they target (its five tries, spent before the
    /// comparison, then it is dead) and against the guessing client; never against the account, so a
    /// stranger's wrong codes cannot lock the owner out of a code the owner holds. A correct code
    /// clears `alsoResetting`.
    func guardingCode<T: Sendable>(
        client: ClientInfo,
        alsoResetting: [RateLimiter.Bucket] = [],
        _ body: () async throws -> T
    ) async throws -> T {
        let buckets = [limiter.bucket(limits.codePerClient, client: client)]
        return try await limiter.guarding(buckets, resetOnSuccess: alsoResetting, failureCodes: [.codeMismatch], body)
    }

    /// Resend and forgot share the per-address mail quotas (and each client's), so the answers stay
    /// the same whatever the address.
    func consumeMailQuota(_ email: EmailAddress, client: ClientInfo) async throws {
        let mailBuckets = limiter.mailBuckets(emailKey: email.key, client: client)
        try await limiter.consume([mailBuckets.client] + mailBuckets.address)
    }

    /// Creates an unconfirmed account and mails a code; a taken address gets the same answer.
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - password: The password to set.
    ///   - fullName: A display name, if any.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The sign-up answer.
    /// - Throws: `invalid_request`, `invalid_password`, `too_many_requests`.
    public func signUp(email rawEmail: String, password: String, fullName: String?, client: ClientInfo, logger: Logger) async throws -> SignUpResult {
        let email = try EmailAddress(rawEmail)
        try strategy.checkNewPassword(password, email: email)
        let name = try InputRules.displayName(fullName)
        let mailBuckets = limiter.mailBuckets(emailKey: email.key, client: client)
        try await admit(client)
        try await limiter.consume([mailBuckets.client])
        let outcome = try await strategy.signUp(email: email, password: password, name: name, client: client, logger: logger)
        // The address's quota is drawn on where the mail is (or would be) sent: a new account's code
        // went out with it and counts; a taken address's owner hears of it only while the quota lasts.
        switch outcome {
        case .created:
            _ = try await limiter.tryConsume(mailBuckets.address)
        case .taken(_, let owner?):
            if try await limiter.tryConsume(mailBuckets.address) == nil { try await strategy.sendTakenAddressNotice(to: owner, email: email) }
        case .taken(_, nil):
            break
        }
        return outcome.answer
    }

    /// Confirms the address with the code from the sign-up mail.
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - code: The code as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `code_mismatch`, `code_expired`, `too_many_requests`.
    public func confirmSignUp(email rawEmail: String, code: String, client: ClientInfo, logger: Logger) async throws {
        let email = try EmailAddress(rawEmail)
        let code = InputRules.code(code)
        let changed = try await guardingCode(client: client) {
            try await strategy.confirmSignUp(email: email, code: code, client: client, logger: logger)
        }
        domainEvents.publish(changed)
    }

    /// Sends a new confirmation code (the same answer for every address).
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `invalid_request`, `too_many_requests`.
    public func resendConfirmationCode(email rawEmail: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let email = try EmailAddress(rawEmail)
        try await consumeMailQuota(email, client: client)
        return try await strategy.resendConfirmationCode(email: email, client: client, logger: logger)
    }

    /// Signs in with email and password (counted under `password`).
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - password: The presented password.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The new session's tokens.
    /// - Throws: `invalid_credentials`, `user_not_confirmed`, `too_many_requests`.
    public func signIn(email rawEmail: String, password: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("password") {
            let email = try EmailAddress(rawEmail)
            try strategy.checkPresentedPassword(password)
            let accountBucket = limiter.bucket(limits.signInPerAccount, email.key)
            try await admit(client)
            // The attempt is counted before the password is checked, so concurrent guesses cannot
            // all slip in under the limit; a correct password clears the account's failures.
            let proof = try await limiter.guarding(
                [accountBucket, limiter.bucket(limits.signInPerClient, client: client)],
                resetOnSuccess: [accountBucket],
                failureCodes: [.invalidCredentials]
            ) {
                try await strategy.verifyPassword(email: email, password: password, client: client, logger: logger)
            }
            return try await tokens(for: proof, client: client, logger: logger)
        }
    }

    /// Mails a reset code to the account that owns the address, if any (the same answer for all).
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `invalid_request`, `too_many_requests`.
    public func forgotPassword(email rawEmail: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let email = try EmailAddress(rawEmail)
        try await consumeMailQuota(email, client: client)
        return try await strategy.forgotPassword(email: email, client: client, logger: logger)
    }

    /// Sets a new password with the code from the reset mail; every session of the user ends.
    /// - Parameters:
    ///   - email: The address as typed.
    ///   - code: The code as typed.
    ///   - newPassword: The new password.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `invalid_password`, `code_mismatch`, `code_expired`, `too_many_requests`.
    public func resetPassword(email rawEmail: String, code: String, newPassword: String, client: ClientInfo, logger: Logger) async throws {
        let email = try EmailAddress(rawEmail)
        try strategy.checkNewPassword(newPassword, email: email)
        let code = InputRules.code(code)
        try await admit(client)
        // A reset proves the address: the account's sign-in back-off is cleared with its code limit.
        let ended = try await guardingCode(client: client, alsoResetting: [limiter.bucket(limits.signInPerAccount, email.key)]) {
            try await strategy.resetPassword(email: email, code: code, newPassword: newPassword, client: client, logger: logger)
        }
        domainEvents.publish(ended)
    }

    /// Changes the caller's password; their other sessions end.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The password they have.
    ///   - newPassword: The one they want.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `invalid_credentials`, `invalid_password`, `too_many_requests`.
    public func changePassword(principal: Principal, currentPassword: String, newPassword: String, client: ClientInfo, logger: Logger) async throws {
        let ended = try await guardingCurrentPassword(of: principal, client: client) {
            try await strategy.changePassword(
                principal: principal,
                currentPassword: currentPassword,
                newPassword: newPassword,
                client: client,
                logger: logger
            )
        }
        domainEvents.publish(ended)
    }

    /// Runs a check of the caller's current password as a failed sign-in would count: against the
    /// account's and the client's sign-in limits, after the hashing queue admits the client.
    func guardingCurrentPassword<T: Sendable>(of principal: Principal, client: ClientInfo, _ body: () async throws -> T) async throws -> T {
        let accountBucket = limiter.bucket(limits.signInPerAccount, try await strategy.signInAccountKey(of: principal))
        try await admit(client)
        return try await limiter.guarding(
            [accountBucket, limiter.bucket(limits.signInPerClient, client: client)],
            resetOnSuccess: [accountBucket],
            failureCodes: [.invalidCredentials],
            body
        )
    }

    /// Proves the caller knows the account's current password (step-up for a sensitive action),
    /// counted exactly as a password change's current password: against the account's and the
    /// client's sign-in limits, after the hashing queue admits the client. Only ``StepUp`` calls it,
    /// and only for a strategy that answers step-up facts: on Cognito, checking the current password
    /// is `ChangePassword` itself.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - password: The password they sent.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `invalid_credentials`, `too_many_requests`.
    func confirmCurrentPassword(principal: Principal, password: String, client: ClientInfo, logger: Logger) async throws {
        try await guardingCurrentPassword(of: principal, client: client) {
            try await strategy.verifyCurrentPassword(principal: principal, password: password, client: client)
        }
    }
}

import Logging

/// Phone numbers as a sign-in identity: a code by SMS signs in (creating the account for a new
/// number), and a signed-in user adds a number the same way. Owns what every provider shares: the
/// number's parsing into E.164 and the country policy (``SMSCountryPolicy``), the SMS quotas against
/// toll fraud — per number, per client address, per number range and per day across the server, drawn
/// on together so a refused request uses none — and the per-client code limit, reserved before a code
/// is checked so concurrent guesses get no more tries than sequential ones (each code has its own five).
public struct PhoneSignIn: Sendable {
    let strategy: any PhoneStrategy
    let policy: SMSCountryPolicy
    let limiter: RateLimiter
    let events: any AuthEventObserver
    let domainEvents: DomainEvents
    let stepUp: StepUp

    /// Creates the use case.
    /// - Parameters:
    ///   - strategy: The active provider's phone strategy.
    ///   - policy: Which numbers may be texted (none: phone sign-in is off).
    ///   - limiter: The SMS quotas and the code limits.
    ///   - events: Where sign-in outcomes are counted (under `phone`).
    ///   - domainEvents: Where what a flow changed is published.
    ///   - stepUp: The check adding or replacing a number passes first.
    public init(
        strategy: any PhoneStrategy,
        policy: SMSCountryPolicy,
        limiter: RateLimiter,
        events: any AuthEventObserver,
        domainEvents: DomainEvents,
        stepUp: StepUp
    ) {
        self.strategy = strategy
        self.policy = policy
        self.limiter = limiter
        self.events = events
        self.domainEvents = domainEvents
        self.stepUp = stepUp
    }

    /// Whether phone sign-in is on (at least one country allowed).
    public var isEnabled: Bool { policy.isEnabled }

    /// Texts a sign-in code (the same answer whether or not the number has an account).
    /// - Parameters:
    ///   - phone: The number as typed, in international form.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `provider_disabled`, `invalid_request`, `too_many_requests`.
    public func sendCode(phone: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let number = try textable(phone)
        try await limiter.consume(limiter.smsBuckets(number: number, client: client))
        return try await strategy.sendSignInCode(to: number, client: client, logger: logger)
    }

    /// Signs in with the texted code (counted under `phone`).
    /// - Parameters:
    ///   - phone: The number as typed.
    ///   - code: The code as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The new session's tokens, with `is_new_user`.
    /// - Throws: `provider_disabled`, `invalid_request`, `code_mismatch`, `code_expired`, `too_many_requests`.
    public func verifyCode(phone: String, code: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("phone") {
            let number = try textable(phone)
            let code = InputRules.code(code)
            let outcome = try await guardingCode(client: client) {
                try await strategy.verifySignInCode(number: number, code: code, client: client, logger: logger)
            }
            domainEvents.publish(outcome.events)
            return outcome.tokens
        }
    }

    /// Texts a code that adds (or replaces) the number on the caller's account (the same answer whether
    /// or not another account has it). A sensitive action: ``StepUp`` first, so a session made by SMS
    /// alone cannot move an account that has a password or a provider to another number.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - phone: The number as typed.
    ///   - currentPassword: The account's password, if the client sent it (step-up).
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `provider_disabled`, `invalid_request`, `reauthentication_required`, `too_many_requests`.
    public func addNumber(
        principal: Principal,
        phone: String,
        currentPassword: String? = nil,
        client: ClientInfo,
        logger: Logger
    ) async throws -> CodeDelivery {
        let number = try textable(phone)
        try await stepUp.require(principal: principal, currentPassword: currentPassword, client: client, logger: logger)
        try await limiter.consume(limiter.smsBuckets(number: number, client: client))
        return try await strategy.sendLinkCode(principal: principal, number: number, client: client, logger: logger)
    }

    /// Redeems the code that adds the number to the caller's account.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - phone: The number as typed (the one the code was sent to).
    ///   - code: The code as typed.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Throws: `provider_disabled`, `invalid_request`, `code_mismatch`, `code_expired`, `conflict`,
    ///   `too_many_requests`.
    public func verifyNumber(principal: Principal, phone: String, code: String, client: ClientInfo, logger: Logger) async throws {
        let number = try textable(phone)
        let code = InputRules.code(code)
        let changed = try await guardingCode(client: client) {
            try await strategy.verifyLinkCode(principal: principal, number: number, code: code, client: client, logger: logger)
        }
        domainEvents.publish(changed)
    }

    /// Parses the number and checks the country policy; returns its canonical form (``SMSCountryPolicy/canonical(_:)``).
    func textable(_ phone: String) throws -> PhoneNumber {
        try strategy.checkPhoneAvailable()
        guard policy.isEnabled else {
            throw GatehouseError(.providerDisabled, "Phone sign-in is not enabled on this server.")
        }
        let number: PhoneNumber
        do {
            number = try PhoneNumber(parsing: phone)
        } catch let problem as PhoneNumber.Problem {
            throw GatehouseError.invalidRequest(Self.message(for: problem))
        }
        do {
            return try policy.canonical(number)
        } catch SMSCountryPolicy.Refusal.refusedPrefix {
            throw GatehouseError.invalidRequest("Codes cannot be sent to premium-rate or special numbers.")
        } catch SMSCountryPolicy.Refusal.notANumber {
            throw GatehouseError.invalidRequest("This is not a valid phone number for its country.")
        } catch {
            throw GatehouseError.invalidRequest("Codes cannot be sent to numbers in this country.")
        }
    }

    /// The code limits: a guess counts against the code it targets (five tries, then that code is
    /// spent) and against the guessing client, never against the number, so wrong codes from a
    /// stranger cannot lock the owner out: a freshly sent code works for whoever holds it, within the
    /// per-number send caps.
    func guardingCode<T: Sendable>(client: ClientInfo, _ body: () async throws -> T) async throws -> T {
        try await limiter.guarding([limiter.bucket(limiter.settings.codePerClient, client: client)], failureCodes: [.codeMismatch], body)
    }

    static func message(for problem: PhoneNumber.Problem) -> String {
        switch problem {
        case .empty: "A phone number is required."
        case .notInternational: "Enter the number in international form, starting with + and the country code."
        case .invalidCharacter: "A phone number may hold only digits, spaces, dashes, dots, brackets and a leading +."
        case .tooShort: "The phone number is too short."
        case .tooLong: "The phone number is too long."
        case .invalidCountryCode: "The phone number's country code is not valid."
        }
    }
}

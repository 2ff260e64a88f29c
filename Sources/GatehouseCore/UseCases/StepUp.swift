import Foundation
import Logging

/// Step-up for sensitive actions (deleting the account, changing its phone number; later email,
/// MFA and passkey changes): the caller's session must have signed in by a method at least as strong
/// as the strongest the account has (``SignInMethod``: a text message ranks below a password or
/// Google or Apple), and within ``maxAge`` when one is set; or the request must carry the account's
/// current password, checked under the sign-in throttles. So a session made by SMS alone cannot take
/// over an account that also has a password or a provider.
public struct StepUp: Sendable {
    let strategy: any AccountStrategy
    /// Checks a current password (``PasswordAuthentication/confirmCurrentPassword(principal:password:client:logger:)``).
    let confirmPassword: @Sendable (Principal, String, ClientInfo, Logger) async throws -> Void
    let clock: any TimeSource
    /// The longest a sign-in counts as recent for a sensitive action, if any (`GATEHOUSE_STEP_UP_MAX_AGE`).
    let maxAge: TimeInterval?

    /// Creates the check.
    /// - Parameters:
    ///   - strategy: Says how the caller's session signed in and what the account has.
    ///   - passwords: Checks a current password (counted as password change counts it).
    ///   - clock: The time a sign-in's age is measured at.
    ///   - maxAge: The longest a sign-in counts as recent, or nil for any age.
    public init(strategy: any AccountStrategy, passwords: PasswordAuthentication, clock: any TimeSource, maxAge: TimeInterval?) {
        self.init(strategy: strategy, clock: clock, maxAge: maxAge) { principal, password, client, logger in
            try await passwords.confirmCurrentPassword(principal: principal, password: password, client: client, logger: logger)
        }
    }

    /// The check with the current-password proof given as a function (tests of the policy alone).
    init(
        strategy: any AccountStrategy,
        clock: any TimeSource,
        maxAge: TimeInterval?,
        confirmPassword: @escaping @Sendable (Principal, String, ClientInfo, Logger) async throws -> Void
    ) {
        self.strategy = strategy
        self.clock = clock
        self.maxAge = maxAge
        self.confirmPassword = confirmPassword
    }

    /// Refuses a sensitive action unless the caller's session is strong and recent enough, or
    /// `currentPassword` is the account's password. Providers that cannot say how a session signed in
    /// (Cognito) are not checked here.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The account's current password, if the client sent it.
    ///   - client: Who asks (a wrong password counts against it and the account).
    ///   - logger: The request's logger.
    /// - Throws: `reauthentication_required`; with a password, `invalid_credentials` or `too_many_requests`.
    public func require(principal: Principal, currentPassword: String?, client: ClientInfo, logger: Logger) async throws {
        guard let facts = try await strategy.stepUpFacts(principal: principal) else { return }
        if let currentPassword {
            guard facts.hasPassword else {
                throw GatehouseError.invalidRequest("This account has no password: sign in again to do this.")
            }
            try await confirmPassword(principal, currentPassword, client, logger)
            return
        }
        let strongest = facts.account.max() ?? facts.session
        let recent = maxAge.map { clock.now().timeIntervalSince(facts.authenticatedAt) <= $0 } ?? true
        guard facts.session >= strongest, recent else {
            logger.info(
                "sensitive action refused: the session is too weak or too old",
                metadata: ["user.sub": .string(principal.sub), "session.method": .string(facts.session.rawValue)]
            )
            throw GatehouseError(.reauthenticationRequired, Self.message(facts, strongest: strongest, recent: recent))
        }
    }

    static func message(_ facts: StepUpFacts, strongest: SignInMethod, recent: Bool) -> String {
        var ways: [String] = []
        if facts.account.contains(.password) { ways.append("your password") }
        if facts.account.contains(.social) { ways.append("Google or Apple") }
        let again = ways.isEmpty ? "Sign in again" : "Sign in again with " + ways.joined(separator: " or ")
        let why = recent ? "This needs a stronger sign-in than a text message." : "This needs a recent sign-in."
        return why + " " + again + (facts.hasPassword ? ", or send your current password as current_password." : ".")
    }
}

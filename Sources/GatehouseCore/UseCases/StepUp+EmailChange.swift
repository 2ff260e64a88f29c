import Foundation
import Logging

extension StepUp {
    /// The longest ago an account without a password may have signed in to change its address
    /// (shorter when `GATEHOUSE_STEP_UP_MAX_AGE` is).
    public static let emailChangeMaxAge: TimeInterval = 15 * 60

    /// The rule for changing the account's email address, stricter than ``require(principal:currentPassword:client:logger:)``
    /// because the address is how the account is recovered (a reset code goes there): an account with a
    /// password must send its current password, whatever the session (a stolen access token alone
    /// cannot move the account's recovery); an account without one (Google, Apple, phone or passkey
    /// only) must have signed in by a method as strong as its strongest within ``emailChangeMaxAge``.
    /// Providers that cannot say how a session signed in (Cognito) are not checked here.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The account's current password, if the client sent it.
    ///   - client: Who asks (a wrong password counts against it and the account).
    ///   - logger: The request's logger.
    /// - Throws: `reauthentication_required`; with a password, `invalid_credentials` or `too_many_requests`;
    ///   `invalid_request` for a password sent for an account without one.
    public func requireForEmailChange(principal: Principal, currentPassword: String?, client: ClientInfo, logger: Logger) async throws {
        guard let facts = try await strategy.stepUpFacts(principal: principal) else { return }
        if facts.hasPassword {
            guard let currentPassword else {
                throw GatehouseError(.reauthenticationRequired, "Send your current password as current_password to change your email address.")
            }
            try await confirmPassword(principal, currentPassword, client, logger)
            return
        }
        guard currentPassword == nil else {
            throw GatehouseError.invalidRequest("This account has no password: sign in again to do this.")
        }
        let window = min(maxAge ?? Self.emailChangeMaxAge, Self.emailChangeMaxAge)
        let strongest = facts.account.max() ?? facts.session
        let recent = clock.now().timeIntervalSince(facts.authenticatedAt) <= window
        guard facts.session >= strongest, recent else {
            logger.info(
                "email change refused: the session is too weak or too old",
                metadata: ["user.sub": .string(principal.sub), "session.method": .string(facts.session.rawValue)]
            )
            throw GatehouseError(.reauthenticationRequired, Self.message(facts, strongest: strongest, recent: recent))
        }
    }
}

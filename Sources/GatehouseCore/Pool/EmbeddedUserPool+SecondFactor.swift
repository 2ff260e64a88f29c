import Foundation
import GatehouseInfrastructure
import Logging

extension EmbeddedUserPool: SecondFactorStrategy {
    /// The one gate every embedded sign-in passes (``record(_:for:in:)``): a user with a confirmed
    /// authenticator app gets no session from a first factor alone, but a sealed challenge to redeem with
    /// a code. A passkey (possession and user verification in one) and a session the second factor
    /// completed (`+otp`) pass.
    func requireSecondFactor(_ start: SessionStart, userID: String, in tx: any StoreTransaction) async throws {
        guard start.method != "passkey", !start.method.hasSuffix("+otp"),
            try await tx.totp(userID: userID)?.confirmedAt != nil
        else { return }
        let challenge = MFAChallenge(
            userID: userID,
            method: start.method,
            expiresAt: start.at.addingTimeInterval(MFAChallenge.lifetime),
            id: random.uuid()
        )
        throw GatehouseError.mfaRequired(token: try challenge.seal(with: box))
    }

    /// Starts the session a second factor completed: the first factor's method with `+otp`.
    public func startSession(afterSecondFactor userID: String, firstFactor: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        guard let user = try await store.read({ try await $0.user(id: userID) }), user.confirmed else {
            throw GatehouseError(.invalidCredentials, "Sign in again.", cause: "the challenge's user is gone or unconfirmed")
        }
        let tokens = try await startSession(for: user, method: firstFactor + "+otp", client: client, nonce: nil, isNewUser: nil)
        logger.info("signed in", metadata: ["user.sub": .string(user.id), "auth.method": .string(firstFactor + "+otp")])
        return tokens
    }

    /// The pool user (for enrolment's label).
    public func secondFactorUser(id: String) async throws -> UserRecord? {
        try await store.read { try await $0.user(id: id) }
    }
}

import Logging

/// Cognito's SRP sign-in (`USER_SRP_AUTH`), where the password never leaves the device: the embedded
/// pool answers a challenge from the user's verifier and checks the client's proof. The throttles are
/// ``PasswordAuthentication``'s, the same as a password sign-in's.
public protocol SRPStrategy: Sendable {
    /// Whether SRP can run here (the pool makes verifiers and the system's libcrypto is loaded).
    var srpAvailable: Bool { get }

    /// The challenge for `email` and the client's `SRP_A`; an unknown address, or an account without a
    /// verifier, gets a decoy that looks the same and never verifies.
    /// - Parameters:
    ///   - email: The address.
    ///   - publicA: `SRP_A` in hex.
    ///   - clientID: The app client the sign-in is for.
    /// - Returns: The challenge.
    /// - Throws: `invalid_request` for an `SRP_A` that is not a valid public value.
    func srpChallenge(email: EmailAddress, publicA: String, clientID: String) async throws -> SRPChallenge

    /// Opens the claim's secret block: which account it is for, so the use case can count the attempt.
    /// - Parameters:
    ///   - claim: The client's answer.
    ///   - clientID: The app client the answer came for.
    /// - Returns: The opened claim.
    /// - Throws: `invalid_credentials` for a block that is altered, expired, or for another client or pool.
    func openSRPClaim(_ claim: SRPClaim, clientID: String) throws -> OpenedSRPClaim

    /// Accepts the claim once and checks the proof against the user's verifier.
    /// - Parameters:
    ///   - claim: The opened claim.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The verified user, whose session ``SessionIssuer`` starts.
    /// - Throws: `invalid_credentials` (a wrong password, a replayed block, a stale timestamp, a decoy),
    ///   `user_not_confirmed`.
    func verifySRP(_ claim: OpenedSRPClaim, client: ClientInfo, logger: Logger) async throws -> SignInProof
}

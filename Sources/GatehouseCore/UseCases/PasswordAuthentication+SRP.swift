import Logging

extension PasswordAuthentication {
    /// Whether Cognito's SRP sign-in can run on this provider (what `USER_AUTH` offers as `PASSWORD_SRP`).
    public var offersSRP: Bool { (strategy as? any SRPStrategy)?.srpAvailable == true }

    /// Starts a Cognito SRP sign-in (`USER_SRP_AUTH`): the challenge for the address and the client's
    /// `SRP_A`. Admitted like a password sign-in (each challenge costs modular exponentiations); an
    /// unknown address gets a decoy that looks the same.
    /// - Parameters:
    ///   - email: The address as typed (`USERNAME`).
    ///   - publicA: `SRP_A` in hex.
    ///   - clientID: The app client.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The `PASSWORD_VERIFIER` challenge.
    /// - Throws: `invalid_request`, `too_many_requests`; `invalid_credentials` where SRP cannot run.
    public func startSRP(email rawEmail: String, publicA: String, clientID: String, client: ClientInfo, logger: Logger) async throws -> SRPChallenge {
        guard let srp = strategy as? any SRPStrategy else { throw GatehouseError.invalidCredentials }
        let email = try EmailAddress(rawEmail)
        try await admit(client)
        return try await srp.srpChallenge(email: email, publicA: publicA, clientID: clientID)
    }

    /// Finishes a Cognito SRP sign-in (counted under `password`, in the same throttles as a password
    /// sign-in: the account's and the client's). A block that does not open counts against the client.
    /// - Parameters:
    ///   - claim: The client's answer to the challenge.
    ///   - clientID: The app client.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The new session's tokens.
    /// - Throws: `invalid_credentials`, `user_not_confirmed`, `too_many_requests`.
    public func finishSRP(_ claim: SRPClaim, clientID: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("password") {
            guard let srp = strategy as? any SRPStrategy else { throw GatehouseError.invalidCredentials }
            let clientBucket = limiter.bucket(limits.signInPerClient, client: client)
            let opened = try await limiter.guarding([clientBucket], failureCodes: [.invalidCredentials]) {
                try srp.openSRPClaim(claim, clientID: clientID)
            }
            let accountBucket = limiter.bucket(limits.signInPerAccount, opened.emailKey)
            let proof = try await limiter.guarding(
                [accountBucket, clientBucket],
                resetOnSuccess: [accountBucket],
                failureCodes: [.invalidCredentials]
            ) {
                try await srp.verifySRP(opened, client: client, logger: logger)
            }
            return try await tokens(for: proof, client: client, logger: logger)
        }
    }
}

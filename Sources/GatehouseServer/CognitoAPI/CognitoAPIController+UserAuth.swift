import GatehouseCore
import GatehouseInfrastructure
import Hummingbird

/// Cognito's choice-based sign-in, as Amplify Swift and boto3 use it: `InitiateAuth` with `USER_AUTH`
/// runs a preferred first factor the pool offers (`PREFERRED_CHALLENGE` `PASSWORD` with `PASSWORD`,
/// `PASSWORD_SRP` with `SRP_A`, `WEB_AUTHN`), and otherwise answers `SELECT_CHALLENGE` with the pool's
/// `AvailableChallenges` and a sealed `Session`; `RespondToAuthChallenge` with `SELECT_CHALLENGE` and
/// `ANSWER` (plus that factor's parameters) runs the factor chosen. The rules are ``SignInChoices``'s.
extension CognitoAPIController {
    /// `InitiateAuth` with `USER_AUTH`.
    func userAuth(_ parameters: [String: String], context: GatehouseRequestContext) async throws -> JSONValue {
        let username = try Self.required("USERNAME", in: parameters)
        var preferred = parameters["PREFERRED_CHALLENGE"]
        if preferred?.isEmpty == true { preferred = nil }
        if let preferred, !SignInChoice.cognitoFirstFactors.contains(preferred) {
            throw CognitoAPIError.invalidParameter(
                "PREFERRED_CHALLENGE must be one of \(SignInChoice.cognitoFirstFactors.sorted().joined(separator: ", "))."
            )
        }
        if let choice = preferred.flatMap(SignInChoice.init(rawValue:)), signInChoices.offered.contains(choice) {
            return try await run(choice, username: username, parameters: parameters, context: context)
        }
        // No preference, or one this pool does not offer (EMAIL_OTP, SMS_OTP; passkeys or SRP off): the choice.
        let offer = try signInChoices.offer(username: username, clientID: client.id)
        return .object([
            "ChallengeName": "SELECT_CHALLENGE",
            "Session": .string(offer.session),
            "AvailableChallenges": .array(offer.choices.map { .string($0.rawValue) }),
            "ChallengeParameters": .object([:]),
        ])
    }

    /// `RespondToAuthChallenge` with `SELECT_CHALLENGE`: `USERNAME`, `ANSWER` and the factor's own
    /// parameters, with the `Session` `SELECT_CHALLENGE` answered. The request is checked before the
    /// session is spent, so a malformed one costs the client nothing.
    func respondToSelectChallenge(_ input: CognitoAPIInput, context: GatehouseRequestContext) async throws -> JSONValue {
        let responses = try input.stringMap("ChallengeResponses")
        let username = try Self.required("USERNAME", in: responses)
        let answer = try Self.required("ANSWER", in: responses)
        guard let choice = SignInChoice(rawValue: answer) else {
            throw CognitoAPIError.invalidParameter("ANSWER must be one of the AvailableChallenges.")
        }
        switch choice {
        case .password: _ = try Self.required("PASSWORD", in: responses)
        case .passwordSRP: _ = try Self.required("SRP_A", in: responses)
        case .webAuthn: break
        }
        let session = try input.string("Session")
        try await signInChoices.redeem(session: session, username: username, clientID: client.id, answer: choice, logger: context.logger)
        return try await run(choice, username: username, parameters: responses, context: context)
    }

    /// Runs a first factor: `PASSWORD` signs in (or answers the second factor's challenge),
    /// `PASSWORD_SRP` answers `PASSWORD_VERIFIER`, `WEB_AUTHN` answers the passkey challenge.
    private func run(
        _ choice: SignInChoice,
        username: String,
        parameters: [String: String],
        context: GatehouseRequestContext
    ) async throws
        -> JSONValue
    {
        switch choice {
        case .password:
            let password = try Self.required("PASSWORD", in: parameters)
            return try await signInStep {
                try await passwords.signIn(email: username, password: password, client: context.client, logger: context.logger)
            }
        case .passwordSRP:
            return try await passwordVerifierChallenge(username: username, publicA: try Self.required("SRP_A", in: parameters), context: context)
        case .webAuthn:
            return try await webAuthnChallenge(username: username)
        }
    }

    /// A required, non-empty member of `AuthParameters` or `ChallengeResponses`.
    static func required(_ name: String, in parameters: [String: String]) throws(CognitoAPIError) -> String {
        guard let value = parameters[name], !value.isEmpty else { throw .invalidParameter("Missing required parameter \(name)") }
        return value
    }
}

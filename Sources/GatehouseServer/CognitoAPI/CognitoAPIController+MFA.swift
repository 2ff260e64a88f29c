import GatehouseCore
import GatehouseInfrastructure
import Hummingbird
import Logging

/// Cognito's software-token MFA, as Amplify calls it: a sign-in of an account with an authenticator app
/// answers the `SOFTWARE_TOKEN_MFA` challenge (the `Session` is the sealed second step), which
/// `RespondToAuthChallenge` redeems with `SOFTWARE_TOKEN_MFA_CODE`; `AssociateSoftwareToken`,
/// `VerifySoftwareToken` and `SetUserMFAPreference` enrol an app. The rules are ``SecondFactor``'s.
extension CognitoAPIController {
    /// A sign-in step's answer: its tokens, or the `SOFTWARE_TOKEN_MFA` challenge when the account has an app.
    func signInStep(_ step: () async throws -> AuthTokens) async throws -> JSONValue {
        do {
            return .object(["ChallengeParameters": .object([:]), "AuthenticationResult": Self.authenticationResult(try await step())])
        } catch let error as GatehouseError where error.code == .mfaRequired {
            guard let session = error.mfaToken else { throw error }
            return .object(["ChallengeName": "SOFTWARE_TOKEN_MFA", "Session": .string(session), "ChallengeParameters": .object([:])])
        }
    }

    /// The MFA operations; `nil` for any other.
    func performMFA(_ operation: String, _ input: CognitoAPIInput, context: GatehouseRequestContext) async throws -> JSONValue? {
        switch operation {
        case "AssociateSoftwareToken":
            let principal = try await authenticate(input, logger: context.logger)
            let enrolment = try await secondFactor.enrol(for: principal)
            return .object(["SecretCode": .string(enrolment.secret)])
        case "VerifySoftwareToken":
            let principal = try await authenticate(input, logger: context.logger)
            // Cognito has no recovery codes: the API's `POST /me/mfa/recovery-codes` makes new ones.
            _ = try await secondFactor.confirm(for: principal, code: try input.string("UserCode"), logger: context.logger)
            return .object(["Status": "SUCCESS"])
        case "SetUserMFAPreference":
            _ = try await authenticate(input, logger: context.logger)
            if case .object(let settings)? = input.members["SoftwareTokenMfaSettings"], case .bool(false)? = settings["Enabled"] {
                throw CognitoAPIError.invalidParameter("Turning the authenticator app off needs a current code: DELETE /me/mfa/totp.")
            }
            return .object([:])
        default:
            return nil
        }
    }

    /// `RespondToAuthChallenge` with `SOFTWARE_TOKEN_MFA`: the `Session` and the app's code.
    func respondToMFAChallenge(_ input: CognitoAPIInput, context: GatehouseRequestContext) async throws -> JSONValue {
        let responses = try input.stringMap("ChallengeResponses")
        guard let code = responses["SOFTWARE_TOKEN_MFA_CODE"] else {
            throw CognitoAPIError.invalidParameter("ChallengeResponses must carry SOFTWARE_TOKEN_MFA_CODE.")
        }
        let tokens: AuthTokens
        do {
            tokens = try await secondFactor.verify(token: try input.string("Session"), code: code, client: context.client, logger: context.logger)
        } catch let error as GatehouseError where error.code == .invalidGrant {
            // A spent, expired or forged challenge: Cognito refuses the `Session` itself ("Invalid
            // session for the user."); its invalid_grant answer names refresh tokens.
            throw GatehouseError(.invalidSession, error.message)
        }
        return .object(["ChallengeParameters": .object([:]), "AuthenticationResult": Self.authenticationResult(tokens)])
    }
}

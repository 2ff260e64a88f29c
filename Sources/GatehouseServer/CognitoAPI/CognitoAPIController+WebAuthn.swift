import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Hummingbird

/// Cognito's passkey operations as Amplify Swift calls them, over ``Passkeys``: registration
/// (`StartWebAuthnRegistration`, `CompleteWebAuthnRegistration`), `ListWebAuthnCredentials`,
/// `DeleteWebAuthnCredential`, and the `WEB_AUTHN` challenge of `USER_AUTH` (preferred or chosen),
/// answered by `RespondToAuthChallenge` with `WEB_AUTHN`.
extension CognitoAPIController {
    /// The passkey operations; `nil` for any other.
    func performWebAuthn(_ operation: String, _ input: CognitoAPIInput, context: GatehouseRequestContext) async throws -> JSONValue? {
        switch operation {
        case "StartWebAuthnRegistration":
            let principal = try await authenticate(input, logger: context.logger)
            return .object(["CredentialCreationOptions": try await passkeys.registrationOptions(for: principal)])
        case "CompleteWebAuthnRegistration":
            let principal = try await authenticate(input, logger: context.logger)
            guard let credential = input.members["Credential"], case .object = credential else {
                throw CognitoAPIError.invalidParameter("Credential must be the RegistrationResponseJSON object.")
            }
            _ = try await passkeys.register(for: principal, response: credential, name: nil, client: context.client, logger: context.logger)
            return .object([:])
        case "ListWebAuthnCredentials":
            let principal = try await authenticate(input, logger: context.logger)
            let rpID = passkeys.settings?.rpID ?? ""
            let credentials = try await passkeys.list(for: principal).map { passkey -> JSONValue in
                .object([
                    "CredentialId": .string(passkey.id), "FriendlyCredentialName": .string(passkey.name), "RelyingPartyId": .string(rpID),
                    "AuthenticatorTransports": .array(passkey.transports.map(JSONValue.string)),
                    "CreatedAt": .number(Double(passkey.createdAt.epochSeconds)),
                ])
            }
            return .object(["Credentials": .array(credentials)])
        case "DeleteWebAuthnCredential":
            let principal = try await authenticate(input, logger: context.logger)
            try await passkeys.delete(for: principal, id: try input.string("CredentialId"), logger: context.logger)
            return .object([:])
        default:
            return nil
        }
    }

    /// The `WEB_AUTHN` challenge for an address (`USER_AUTH` with `PREFERRED_CHALLENGE=WEB_AUTHN`, or
    /// `WEB_AUTHN` chosen at `SELECT_CHALLENGE`): the request options as a JSON string; the `Session` is
    /// their sealed challenge. An address without passkeys gets the options' decoy, not a tell.
    func webAuthnChallenge(username: String) async throws -> JSONValue {
        let options = try await passkeys.authenticationOptions(email: username)
        guard case .object(let fields) = options, let challenge = fields["challenge"]?.stringValue else {
            throw GatehouseError.internalError(cause: "passkey options without a challenge")
        }
        return .object([
            "ChallengeName": "WEB_AUTHN", "Session": .string(challenge),
            "ChallengeParameters": ["CREDENTIAL_REQUEST_OPTIONS": .string(options.serializedString())],
        ])
    }

    /// `RespondToAuthChallenge` with `WEB_AUTHN`: `CREDENTIAL`, the AuthenticationResponseJSON as a string.
    func respondToWebAuthnChallenge(_ input: CognitoAPIInput, context: GatehouseRequestContext) async throws -> JSONValue {
        let responses = try input.stringMap("ChallengeResponses")
        guard let text = responses["CREDENTIAL"], text.utf8.count <= 16_384,
            let credential = try? StrictJSONParser(maxDepth: 8).parse(Array(text.utf8))
        else { throw CognitoAPIError.invalidParameter("ChallengeResponses must carry CREDENTIAL, the AuthenticationResponseJSON.") }
        let tokens = try await passkeys.signIn(response: credential, client: context.client, logger: context.logger)
        return .object(["ChallengeParameters": .object([:]), "AuthenticationResult": Self.authenticationResult(tokens)])
    }
}

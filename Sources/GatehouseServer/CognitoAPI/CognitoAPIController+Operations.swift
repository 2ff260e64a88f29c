import GatehouseCore
import GatehouseInfrastructure
import Hummingbird
import Logging

extension CognitoAPIController {
    /// The operations served; each reads its input as Cognito's service model names it.
    func perform(_ operation: String, _ input: CognitoAPIInput, request: Request, context: GatehouseRequestContext) async throws -> JSONValue {
        let client = context.client
        let logger = context.logger
        switch operation {
        case "SignUp":
            try requireClient(input)
            let name = try input.attributes("UserAttributes").last { $0.name == "name" }?.value
            let result = try await passwords.signUp(
                email: try input.string("Username"),
                password: try input.string("Password"),
                fullName: name,
                client: client,
                logger: logger
            )
            return .object([
                "UserConfirmed": .bool(result.userConfirmed),
                "UserSub": .string(result.userSub),
                "CodeDeliveryDetails": Self.delivery(result.codeDelivery),
            ])
        case "ConfirmSignUp":
            try requireClient(input)
            try await passwords.confirmSignUp(
                email: try input.string("Username"),
                code: try input.string("ConfirmationCode"),
                client: client,
                logger: logger
            )
            return .object([:])
        case "ResendConfirmationCode":
            try requireClient(input)
            let delivery = try await passwords.resendConfirmationCode(email: try input.string("Username"), client: client, logger: logger)
            return .object(["CodeDeliveryDetails": Self.delivery(delivery)])
        case "InitiateAuth":
            return try await initiateAuth(input, context: context)
        case "RespondToAuthChallenge":
            return try await respondToAuthChallenge(input, context: context)
        case "GetTokensFromRefreshToken":
            try requireClient(input)
            let tokens = try await sessions.refresh(refreshToken: try input.string("RefreshToken"), client: client, logger: logger)
            return .object(["AuthenticationResult": Self.authenticationResult(tokens)])
        case "GetUser":
            let principal = try await authenticate(input, logger: logger)
            let view = try await profiles.view(for: principal, logger: logger)
            var attributes: [JSONValue] = [Self.attribute("sub", principal.sub)]
            if let email = view.profile.email {
                attributes.append(Self.attribute("email", email))
                attributes.append(Self.attribute("email_verified", view.profile.emailVerified ? "true" : "false"))
            }
            if let name = view.profile.fullName { attributes.append(Self.attribute("name", name)) }
            if let phone = view.profile.phone {
                attributes.append(Self.attribute("phone_number", phone))
                attributes.append(Self.attribute("phone_number_verified", view.profile.phoneVerified ? "true" : "false"))
            }
            return .object(["Username": .string(principal.username), "UserAttributes": .array(attributes)])
        case "UpdateUserAttributes":
            let principal = try await authenticate(input, logger: logger)
            let attributes = try input.attributes("UserAttributes")
            guard !attributes.isEmpty else { throw CognitoAPIError.invalidParameter("UserAttributes must not be empty.") }
            for attribute in attributes where attribute.name != "name" {
                throw CognitoAPIError.invalidParameter("Only the name attribute can be changed here; \(attribute.name.prefix(64)) cannot.")
            }
            let name = attributes.last?.value
            _ = try await profiles.update(for: principal, fullName: .some(name?.isEmpty == true ? nil : name), logger: logger)
            return .object(["CodeDeliveryDetailsList": .array([])])
        case "ChangePassword":
            let principal = try await authenticate(input, logger: logger)
            try await passwords.changePassword(
                principal: principal,
                currentPassword: try input.string("PreviousPassword"),
                newPassword: try input.string("ProposedPassword"),
                client: client,
                logger: logger
            )
            return .object([:])
        case "ForgotPassword":
            try requireClient(input)
            let delivery = try await passwords.forgotPassword(email: try input.string("Username"), client: client, logger: logger)
            return .object(["CodeDeliveryDetails": Self.delivery(delivery)])
        case "ConfirmForgotPassword":
            try requireClient(input)
            try await passwords.resetPassword(
                email: try input.string("Username"),
                code: try input.string("ConfirmationCode"),
                newPassword: try input.string("Password"),
                client: client,
                logger: logger
            )
            return .object([:])
        case "GlobalSignOut":
            let principal = try await authenticate(input, logger: logger)
            try await sessions.signOutEverywhere(principal: principal, logger: logger)
            return .object([:])
        case "RevokeToken":
            try requireClient(input)
            try await sessions.signOut(refreshToken: try input.string("Token"), logger: logger)
            return .object([:])
        case "DeleteUser":
            let principal = try await authenticate(input, logger: logger)
            try await accounts.delete(for: principal, client: client, logger: logger)
            return .object([:])
        default:
            if let answer = try await performMFA(operation, input, context: context) { return answer }
            if passkeys.settings != nil, let answer = try await performWebAuthn(operation, input, context: context) { return answer }
            throw Self.refusal(operation, request: request)
        }
    }

    /// `InitiateAuth`: `USER_SRP_AUTH`, `USER_PASSWORD_AUTH`, `USER_AUTH` (a preferred first factor, or the choice),
    /// `REFRESH_TOKEN_AUTH` (and its alias `REFRESH_TOKEN`).
    private func initiateAuth(_ input: CognitoAPIInput, context: GatehouseRequestContext) async throws -> JSONValue {
        try requireClient(input)
        let flow = try input.string("AuthFlow")
        let parameters = try input.stringMap("AuthParameters")
        func parameter(_ name: String) throws(CognitoAPIError) -> String {
            guard let value = parameters[name], !value.isEmpty else { throw .invalidParameter("Missing required parameter \(name)") }
            return value
        }
        switch flow {
        case "USER_SRP_AUTH":
            return try await passwordVerifierChallenge(username: try parameter("USERNAME"), publicA: try parameter("SRP_A"), context: context)
        case "USER_PASSWORD_AUTH":
            let email = try parameter("USERNAME")
            let password = try parameter("PASSWORD")
            return try await signInStep {
                try await passwords.signIn(email: email, password: password, client: context.client, logger: context.logger)
            }
        case "USER_AUTH":
            return try await userAuth(parameters, context: context)
        case "REFRESH_TOKEN_AUTH", "REFRESH_TOKEN":
            // Our refresh tokens rotate: the answer carries the successor, which older Amplify versions
            // ignore (they keep the old token, which works again within the grace window only).
            let tokens = try await sessions.refresh(refreshToken: try parameter("REFRESH_TOKEN"), client: context.client, logger: context.logger)
            return .object(["ChallengeParameters": .object([:]), "AuthenticationResult": Self.authenticationResult(tokens)])
        default:
            throw CognitoAPIError.invalidParameter("AuthFlow \(flow.prefix(64)) is not supported by this user pool.")
        }
    }

    /// The `PASSWORD_VERIFIER` challenge for an address and the client's `SRP_A` (`USER_SRP_AUTH`, or
    /// `PASSWORD_SRP` preferred or chosen in `USER_AUTH`); an unknown address gets a decoy.
    func passwordVerifierChallenge(username: String, publicA: String, context: GatehouseRequestContext) async throws -> JSONValue {
        let challenge = try await passwords.startSRP(
            email: username,
            publicA: publicA,
            clientID: client.id,
            client: context.client,
            logger: context.logger
        )
        return .object([
            "ChallengeName": "PASSWORD_VERIFIER",
            "ChallengeParameters": .object([
                "SALT": .string(challenge.salt),
                "SRP_B": .string(challenge.srpB),
                "SECRET_BLOCK": .string(challenge.secretBlock),
                "USER_ID_FOR_SRP": .string(challenge.userIDForSRP),
                "USERNAME": .string(challenge.username),
            ]),
        ])
    }

    /// `RespondToAuthChallenge`: `PASSWORD_VERIFIER` (works without `Session`: pycognito sends none),
    /// `SOFTWARE_TOKEN_MFA`, `WEB_AUTHN`, `SELECT_CHALLENGE`.
    private func respondToAuthChallenge(_ input: CognitoAPIInput, context: GatehouseRequestContext) async throws -> JSONValue {
        try requireClient(input)
        let name = try input.string("ChallengeName")
        if name == "SOFTWARE_TOKEN_MFA" { return try await respondToMFAChallenge(input, context: context) }
        if name == "WEB_AUTHN" { return try await respondToWebAuthnChallenge(input, context: context) }
        if name == "SELECT_CHALLENGE" { return try await respondToSelectChallenge(input, context: context) }
        guard name == "PASSWORD_VERIFIER" else { throw CognitoAPIError.invalidParameter("ChallengeName \(name.prefix(64)) is not supported.") }
        let responses = try input.stringMap("ChallengeResponses")
        guard let block = responses["PASSWORD_CLAIM_SECRET_BLOCK"], let timestamp = responses["TIMESTAMP"],
            let signature = responses["PASSWORD_CLAIM_SIGNATURE"], responses["USERNAME"] != nil
        else {
            throw CognitoAPIError.invalidParameter(
                "ChallengeResponses must carry USERNAME, TIMESTAMP, PASSWORD_CLAIM_SECRET_BLOCK and PASSWORD_CLAIM_SIGNATURE."
            )
        }
        return try await signInStep {
            try await passwords.finishSRP(
                SRPClaim(secretBlock: block, timestamp: timestamp, signature: signature),
                clientID: client.id,
                client: context.client,
                logger: context.logger
            )
        }
    }

    /// The principal of `AccessToken`, verified as on the native API's protected routes.
    func authenticate(_ input: CognitoAPIInput, logger: Logger) async throws -> Principal {
        try await sessions.authenticate(bearer: try input.string("AccessToken"), logger: logger)
    }

    /// What an operation this pool does not serve answers: the operations AWS serves only signed
    /// (`Admin*`, `ListUsers`, …) are refused as unsigned whatever the request carries; the rest are
    /// unsupported or unknown.
    static func refusal(_ operation: String, request: Request) -> CognitoAPIError {
        let signedOnly =
            operation.hasPrefix("Admin")
            || [
                "ListUsers", "ListUsersInGroup", "ListGroups", "CreateUserPool", "DeleteUserPool",
                "DescribeUserPool", "DescribeUserPoolClient", "ListUserPools", "ListUserPoolClients", "CreateUserPoolClient", "UpdateUserPool",
                "UpdateUserPoolClient", "CreateGroup", "DeleteGroup",
            ].contains(operation)
        if signedOnly {
            return CognitoAPIError("MissingAuthenticationTokenException", "Missing Authentication Token")
        }
        let tokenOperations = [
            "ConfirmDevice", "ListDevices", "ForgetDevice", "GetDevice", "UpdateDeviceStatus", "SetUserSettings", "GetUserAttributeVerificationCode",
            "VerifyUserAttribute",
            "DeleteUserAttributes", "GetUserAuthFactors", "ListWebAuthnCredentials", "StartWebAuthnRegistration",
            "CompleteWebAuthnRegistration", "DeleteWebAuthnCredential", "GetSigningCertificate", "GetUICustomization",
        ]
        if tokenOperations.contains(operation) {
            return .unsupported(operation)
        }
        return CognitoAPIError("UnknownOperationException", "Unknown operation \(operation.prefix(64)).")
    }

    /// Cognito's `AuthenticationResult`; never `NewDeviceMetadata` (Amplify then skips device tracking).
    static func authenticationResult(_ tokens: AuthTokens) -> JSONValue {
        .object([
            "IdToken": .string(tokens.idToken),
            "AccessToken": .string(tokens.accessToken),
            "RefreshToken": .string(tokens.refreshToken),
            "ExpiresIn": .number(Double(tokens.expiresIn)),
            "TokenType": "Bearer",
        ])
    }

    static func delivery(_ delivery: CodeDelivery) -> JSONValue {
        let medium = delivery.medium.uppercased() == "SMS" ? "SMS" : "EMAIL"
        return .object([
            "Destination": .string(delivery.destination),
            "DeliveryMedium": .string(medium),
            "AttributeName": .string(medium == "SMS" ? "phone_number" : "email"),
        ])
    }

    static func attribute(_ name: String, _ value: String) -> JSONValue {
        .object(["Name": .string(name), "Value": .string(value)])
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Email and password on Cognito: SignUp, ConfirmSignUp, ResendConfirmationCode, InitiateAuth, the
/// refresh flows, sign-out and the password operations, with Cognito's errors mapped to the
/// contract's codes (``PasswordAuthentication`` puts Gatehouse's own rate limits in front). The pool uses the email as the username.
extension CognitoIdentityProvider {
    /// SignUp; a taken address answers like a new one. Cognito sends its mail either way, so both are
    /// ``SignUpOutcome/created(_:)`` (the address's mail quota is drawn on for both, as for a code).
    /// - Parameters:
    ///   - email: The address (the pool's username).
    ///   - password: The password, checked by ``checkNewPassword(_:email:)``.
    ///   - name: The display name, checked.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The sign-up answer.
    /// - Throws: `invalid_request`, an upstream error.
    public func signUp(email: EmailAddress, password: String, name: String?, client: ClientInfo, logger: Logger) async throws -> SignUpOutcome {
        var attributes: [JSONValue] = [["Name": "email", "Value": .string(email.value)]]
        if let name { attributes.append(["Name": "name", "Value": .string(name)]) }
        do {
            let output = try await call(
                "SignUp",
                [
                    "ClientId": .string(settings.clientID), "Username": .string(email.value), "Password": .string(password),
                    "UserAttributes": .array(attributes),
                ],
                logger: logger
            )
            let sub = output["UserSub"]?.stringValue ?? random.uuid()
            logger.info("signed up", metadata: ["user.sub": .string(sub)])
            return .created(
                SignUpResult(
                    userSub: sub,
                    userConfirmed: output["UserConfirmed"] == .bool(true),
                    codeDelivery: CodeDelivery(destination: email.masked)
                )
            )
        } catch let error as CognitoError where error.code == "UsernameExistsException" || error.code == "AliasExistsException" {
            // The same answer as for a new address: who has an account is nobody's business.
            logger.info("sign-up for an address that already has an account")
            return .created(SignUpResult(userSub: random.uuid(), userConfirmed: false, codeDelivery: CodeDelivery(destination: email.masked)))
        } catch let error as CognitoError {
            throw error.gatehouseError(error.code == "InvalidParameterException" ? .invalidRequest("The email or name was not accepted.") : nil)
        }
    }

    /// Cognito mails the owner of a taken address itself; ``signUp(email:password:name:client:logger:)``
    /// never answers ``SignUpOutcome/taken(_:owner:)``, so nothing is queued here.
    /// - Parameters:
    ///   - owner: The account holding the address (unused).
    ///   - email: The address (unused).
    public func sendTakenAddressNotice(to owner: UserRecord, email: EmailAddress) async throws {}

    /// ConfirmSignUp under the code limits.
    /// - Parameters:
    ///   - email: The address.
    ///   - code: The normalised code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Nothing to publish.
    /// - Throws: `code_mismatch`, `code_expired`, `too_many_requests`.
    public func confirmSignUp(email: EmailAddress, code: String, client: ClientInfo, logger: Logger) async throws -> [DomainEvent] {
        try await checkingCode(
            code: code,
            logger: logger,
            "ConfirmSignUp",
            ["ClientId": .string(settings.clientID), "Username": .string(email.value), "ConfirmationCode": .string(code)]
        )
        logger.info("sign-up confirmed")
        return []
    }

    /// ResendConfirmationCode under the mail quotas (the same answer for every address).
    /// - Parameters:
    ///   - email: The address.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `too_many_requests`, an upstream error.
    public func resendConfirmationCode(email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        do {
            _ = try await call("ResendConfirmationCode", ["ClientId": .string(settings.clientID), "Username": .string(email.value)], logger: logger)
        } catch let error as CognitoError where ["UserNotFoundException", "InvalidParameterException", "NotAuthorizedException"].contains(error.code)
        {
            logger.info("no confirmation code sent (unknown or confirmed account)")
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        return CodeDelivery(destination: email.masked)
    }

    /// InitiateAuth (USER_PASSWORD_AUTH), run while ``PasswordAuthentication`` holds the attempt
    /// against the sign-in limits; Cognito's tokens are recorded here before they are returned.
    /// - Parameters:
    ///   - email: The address.
    ///   - password: The presented password, checked by ``checkPresentedPassword(_:)``.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Cognito's tokens, recorded.
    /// - Throws: `invalid_credentials`, `user_not_confirmed`, `forbidden`, an upstream error.
    public func verifyPassword(email: EmailAddress, password: String, client: ClientInfo, logger: Logger) async throws -> SignInProof {
        let output: [String: JSONValue]
        do {
            output = try await call(
                "InitiateAuth",
                [
                    "ClientId": .string(settings.clientID), "AuthFlow": "USER_PASSWORD_AUTH",
                    "AuthParameters": ["USERNAME": .string(email.value), "PASSWORD": .string(password)],
                ],
                logger: logger
            )
        } catch let error as CognitoError where error.code == "NotAuthorizedException" || error.code == "UserNotFoundException" {
            logger.info("sign-in failed")
            throw GatehouseError.invalidCredentials
        } catch let error as CognitoError where error.code == "UserNotConfirmedException" {
            throw GatehouseError.userNotConfirmed
        } catch let error as CognitoError where error.code == "PasswordResetRequiredException" {
            throw GatehouseError(.forbidden, "A password reset is required. Use \"forgot password\" to choose a new one.")
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        let tokens = try await issued(output, method: "password", logger: logger)
        logger.info("signed in", metadata: ["auth.method": "password"])
        return .upstreamTokens(tokens)
    }

    /// Refreshes through Cognito, but only for sessions this server has not ended: a refresh token
    /// whose session was signed out, reset or deleted here is refused without asking Cognito.
    /// - Parameters:
    ///   - refreshToken: The presented refresh token.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: New tokens (a refusal here ends nothing, so it throws).
    /// - Throws: `invalid_grant`, an upstream error.
    public func refresh(refreshToken: String, client: ClientInfo, logger: Logger) async throws -> RefreshResult {
        guard !refreshToken.isEmpty, refreshToken.utf8.count <= 8192 else { throw GatehouseError.invalidGrant }
        let hash = refreshTokenHash(refreshToken)
        let refusal: String? = try await store.read { tx in
            guard let record = try await tx.refreshToken(hash: hash) else { return nil }
            if let session = try await tx.session(id: record.sessionID), !session.isActive { return "session ended" }
            if try await tx.subjectRevocation(sub: record.userID)?.deletedAt != nil { return "user deleted" }
            return nil
        }
        if let refusal {
            logger.info("refresh refused", metadata: ["reason": .string(refusal)])
            throw GatehouseError.invalidGrant
        }
        let output: [String: JSONValue]
        do {
            if settings.refreshRotation {
                output = try await call(
                    "GetTokensFromRefreshToken",
                    ["ClientId": .string(settings.clientID), "RefreshToken": .string(refreshToken)],
                    logger: logger
                )
            } else {
                output = try await call(
                    "InitiateAuth",
                    [
                        "ClientId": .string(settings.clientID), "AuthFlow": "REFRESH_TOKEN_AUTH",
                        "AuthParameters": ["REFRESH_TOKEN": .string(refreshToken)],
                    ],
                    logger: logger
                )
            }
        } catch let error as CognitoError
            where ["NotAuthorizedException", "UserNotFoundException", "InvalidParameterException", "RefreshTokenReuseException"].contains(error.code)
        {
            logger.info("refresh refused by Cognito", metadata: ["cognito.error": .string(error.code)])
            throw GatehouseError.invalidGrant
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        return .issued(try await issued(output, method: "refresh", refreshToken: refreshToken, logger: logger))
    }

    /// Ends the refresh token's session here and revokes the token at Cognito (RevokeToken also ends
    /// the access tokens issued from it). Unknown tokens are accepted silently, as RFC 7009 does.
    /// - Parameters:
    ///   - refreshToken: The presented refresh token.
    ///   - logger: The request's logger.
    /// - Returns: The user whose session ended, if any.
    /// - Throws: An upstream error when Cognito is unreachable and nothing ended here.
    public func signOut(refreshToken: String, logger: Logger) async throws -> [DomainEvent] {
        guard !refreshToken.isEmpty, refreshToken.utf8.count <= 8192 else { return [] }
        let hash = refreshTokenHash(refreshToken)
        let now = clock.now()
        let ended: (session: String, sub: String)? = try await store.write { tx in
            guard let record = try await tx.refreshToken(hash: hash) else { return nil }
            try await tx.revokeSession(id: record.sessionID, at: now, reason: .signOut)
            return (record.sessionID, record.userID)
        }
        if let ended {
            logger.info("signed out", metadata: ["session.id": .string(ended.session)])
        }
        let changed: [DomainEvent] = ended.map { [.sessionsChanged(sub: $0.sub)] } ?? []
        do {
            _ = try await call("RevokeToken", ["ClientId": .string(settings.clientID), "Token": .string(refreshToken)], logger: logger)
        } catch let error as CognitoError where error.isUnavailable {
            // Ended here already (our refresh refuses it); Cognito's copy lapses at its expiry.
            guard ended != nil else { throw error.gatehouseError() }  // nothing ended here either
            logger.warning("Cognito could not revoke the refresh token; the session is ended here", metadata: ["cognito.error": .string(error.code)])
        } catch {
            logger.info("Cognito did not revoke the refresh token", metadata: ["cognito.error": .string((error as? CognitoError)?.code ?? "unknown")])
        }
        return changed
    }

    /// GlobalSignOut at Cognito first (retryable if Cognito is down), then every session here.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: The user whose sessions ended.
    /// - Throws: An upstream error (nothing ended; retryable).
    public func signOutEverywhere(principal: Principal, logger: Logger) async throws -> [DomainEvent] {
        try Self.requireAccessToken(principal, for: "Signing out everywhere")
        do {
            _ = try await call("GlobalSignOut", ["AccessToken": .string(principal.accessToken)], logger: logger)
        } catch let error as CognitoError where error.code == "NotAuthorizedException" {
            logger.info("Cognito had already signed the token out")
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        let ended = try await endSessions(sub: principal.sub, reason: .signOutAll, cutOff: true)
        logger.info("signed out everywhere", metadata: ["user.sub": .string(principal.sub)])
        return ended
    }

    /// ForgotPassword under the mail quotas (the same answer for every address).
    /// - Parameters:
    ///   - email: The address.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `too_many_requests`, an upstream error.
    public func forgotPassword(email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        do {
            _ = try await call("ForgotPassword", ["ClientId": .string(settings.clientID), "Username": .string(email.value)], logger: logger)
        } catch let error as CognitoError where ["UserNotFoundException", "InvalidParameterException", "NotAuthorizedException"].contains(error.code)
        {
            logger.info("no reset code sent (unknown account or no verified email)")
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        return CodeDelivery(destination: email.masked)
    }

    /// ConfirmForgotPassword, then every session of the user ends (Cognito keeps them; we do not).
    /// - Parameters:
    ///   - email: The address.
    ///   - code: The normalised code.
    ///   - newPassword: The new password, checked by ``checkNewPassword(_:email:)``.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The user whose sessions ended.
    /// - Throws: `code_mismatch`, `code_expired`, `too_many_requests`, an upstream error.
    public func resetPassword(
        email: EmailAddress,
        code: String,
        newPassword password: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> [DomainEvent] {
        try await checkingCode(
            code: code,
            logger: logger,
            "ConfirmForgotPassword",
            [
                "ClientId": .string(settings.clientID), "Username": .string(email.value), "ConfirmationCode": .string(code),
                "Password": .string(password),
            ]
        )
        // End every session: ours by sub, Cognito's refresh tokens by AdminUserGlobalSignOut.
        var ended: [DomainEvent] = []
        do {
            let user = try await call("AdminGetUser", ["UserPoolId": .string(settings.userPoolID), "Username": .string(email.value)], logger: logger)
            if let sub = CognitoUser(user).sub {
                ended = try await endSessions(sub: sub, reason: .passwordReset, cutOff: true)
            }
            _ = try await call(
                "AdminUserGlobalSignOut",
                ["UserPoolId": .string(settings.userPoolID), "Username": .string(email.value)],
                logger: logger
            )
        } catch let error as CognitoError {
            logger.error("password reset, but ending the other sessions at Cognito failed", metadata: ["cognito.error": .string(error.code)])
        }
        logger.info("password reset")
        return ended
    }

    /// The `sub`: a wrong current password counts against the user's own sign-in bucket. A caller
    /// who sent an ID token is refused here, before any attempt is counted (ChangePassword needs the
    /// access token).
    /// - Parameter principal: The caller.
    /// - Returns: The `sub`.
    /// - Throws: `unauthorized` for an ID token as the bearer.
    public func signInAccountKey(of principal: Principal) async throws -> String {
        try Self.requireAccessToken(principal, for: "Changing the password")
        return principal.sub
    }

    /// ChangePassword with the caller's access token (``PasswordAuthentication`` holds the attempt
    /// against the sign-in limits of the `sub`): Cognito checks and changes in one call; then the
    /// user's other sessions end here.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The password they have.
    ///   - newPassword: The one they want.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The user whose other sessions ended.
    /// - Throws: `invalid_credentials`, or `invalid_password` for a new password outside Cognito's lengths.
    public func changePassword(
        principal: Principal,
        currentPassword: String,
        newPassword: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> [DomainEvent] {
        try Self.requireAccessToken(principal, for: "Changing the password")
        let current = try passwordOrFail(currentPassword, error: .invalidCredentials)
        let proposed = try passwordOrFail(newPassword, error: Self.passwordLength)
        do {
            _ = try await call(
                "ChangePassword",
                ["AccessToken": .string(principal.accessToken), "PreviousPassword": .string(current), "ProposedPassword": .string(proposed)],
                logger: logger
            )
        } catch let error as CognitoError where error.code == "NotAuthorizedException" {
            throw GatehouseError.invalidCredentials
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        let ended = try await endSessions(sub: principal.sub, except: principal.sessionID, reason: .passwordChange, cutOff: true)
        logger.info("password changed", metadata: ["user.sub": .string(principal.sub)])
        return ended
    }

    /// Cognito checks a current password only by changing it, and answers no step-up facts, so
    /// ``StepUp`` never asks this of it.
    /// - Parameters:
    ///   - principal: The caller (unused).
    ///   - password: The password (unused).
    ///   - client: Who asks (unused).
    /// - Throws: `invalid_credentials` always.
    public func verifyCurrentPassword(principal: Principal, password: String, client: ClientInfo) async throws {
        throw GatehouseError(.invalidCredentials, "The current password is not correct.", cause: "Cognito cannot check a password alone")
    }

    /// Runs a Cognito call that checks an emailed code (``PasswordAuthentication`` holds the attempt
    /// against the code limits). An unknown or already-confirmed account answers exactly like a
    /// wrong code.
    func checkingCode(code: String, logger: Logger, _ operation: String, _ input: [String: JSONValue]) async throws {
        guard !code.isEmpty else { throw GatehouseError.codeMismatch }
        do {
            _ = try await call(operation, input, logger: logger)
        } catch let error as CognitoError where error.code == "ExpiredCodeException" {
            throw GatehouseError.codeExpired
        } catch let error as CognitoError
            where ["CodeMismatchException", "UserNotFoundException", "NotAuthorizedException", "AliasExistsException"].contains(error.code)
        {
            throw GatehouseError.codeMismatch
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Email and password on Cognito: SignUp, ConfirmSignUp, ResendConfirmationCode, InitiateAuth, the
/// refresh flows, sign-out and the password operations, with Gatehouse's own rate limits in front and
/// Cognito's errors mapped to the contract's codes. The pool uses the email as the username.
extension CognitoIdentityProvider {
    public func signUp(email rawEmail: String, password: String, fullName: String?, client: ClientInfo, logger: Logger) async throws -> SignUpResult {
        let email = try EmailAddress(rawEmail)
        let name = try EmbeddedUserPool.displayName(fullName)
        let password = try passwordOrFail(password, error: Self.passwordLength)
        let mailBuckets = limiter.mailBuckets(emailKey: email.key, client: client)
        try await limiter.consume([mailBuckets.client])
        _ = try await limiter.tryConsume(mailBuckets.address)
        var attributes: [JSONValue] = [["Name": "email", "Value": .string(email.value)]]
        if let name { attributes.append(["Name": "name", "Value": .string(name)]) }
        do {
            let output = try await call(
                "SignUp",
                ["ClientId": .string(settings.clientID), "Username": .string(email.value), "Password": .string(password), "UserAttributes": .array(attributes)],
                logger: logger)
            let sub = output["UserSub"]?.stringValue ?? random.uuid()
            logger.info("signed up", metadata: ["user.sub": .string(sub)])
            return SignUpResult(userSub: sub, userConfirmed: output["UserConfirmed"] == .bool(true), codeDelivery: CodeDelivery(destination: email.masked))
        } catch let error as CognitoError where error.code == "UsernameExistsException" || error.code == "AliasExistsException" {
            // The same answer as for a new address: who has an account is nobody's business.
            logger.info("sign-up for an address that already has an account")
            return SignUpResult(userSub: random.uuid(), userConfirmed: false, codeDelivery: CodeDelivery(destination: email.masked))
        } catch let error as CognitoError {
            throw error.gatehouseError(error.code == "InvalidParameterException" ? .invalidRequest("The email or name was not accepted.") : nil)
        }
    }

    public func confirmSignUp(email rawEmail: String, code rawCode: String, client: ClientInfo, logger: Logger) async throws {
        let email = try EmailAddress(rawEmail)
        let code = EmbeddedUserPool.normalizeCode(rawCode)
        try await checkingCode(
            email: email, code: code, client: client, logger: logger, "ConfirmSignUp",
            ["ClientId": .string(settings.clientID), "Username": .string(email.value), "ConfirmationCode": .string(code)])
        logger.info("sign-up confirmed")
    }

    public func resendConfirmationCode(email rawEmail: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let email = try EmailAddress(rawEmail)
        try await consumeMailQuota(email, client: client)
        do {
            _ = try await call("ResendConfirmationCode", ["ClientId": .string(settings.clientID), "Username": .string(email.value)], logger: logger)
        } catch let error as CognitoError where ["UserNotFoundException", "InvalidParameterException", "NotAuthorizedException"].contains(error.code) {
            logger.info("no confirmation code sent (unknown or confirmed account)")
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        return CodeDelivery(destination: email.masked)
    }

    public func signIn(email rawEmail: String, password: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("password") {
            let email = try EmailAddress(rawEmail)
            let password = try passwordOrFail(password, error: .invalidCredentials)
            let limits = limiter.settings
            let accountBucket = limiter.bucket(limits.signInPerAccount, email.key)
            let buckets = [accountBucket, limiter.bucket(limits.signInPerClient, client: client)]
            let output: [String: JSONValue] = try await limiter.guarding(buckets, resetOnSuccess: [accountBucket], failureCodes: [.invalidCredentials]) {
                do {
                    return try await call(
                        "InitiateAuth",
                        ["ClientId": .string(settings.clientID), "AuthFlow": "USER_PASSWORD_AUTH",
                         "AuthParameters": ["USERNAME": .string(email.value), "PASSWORD": .string(password)]],
                        logger: logger)
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
            }
            let tokens = try await issued(output, method: "password", logger: logger)
            logger.info("signed in", metadata: ["auth.method": "password"])
            return tokens
        }
    }

    /// Refreshes through Cognito, but only for sessions this server has not ended: a refresh token
    /// whose session was signed out, reset or deleted here is refused without asking Cognito.
    public func refresh(refreshToken: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        try await events.observing("refresh") {
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
                        "GetTokensFromRefreshToken", ["ClientId": .string(settings.clientID), "RefreshToken": .string(refreshToken)], logger: logger)
                } else {
                    output = try await call(
                        "InitiateAuth",
                        ["ClientId": .string(settings.clientID), "AuthFlow": "REFRESH_TOKEN_AUTH", "AuthParameters": ["REFRESH_TOKEN": .string(refreshToken)]],
                        logger: logger)
                }
            } catch let error as CognitoError where ["NotAuthorizedException", "UserNotFoundException", "InvalidParameterException", "RefreshTokenReuseException"].contains(error.code) {
                logger.info("refresh refused by Cognito", metadata: ["cognito.error": .string(error.code)])
                throw GatehouseError.invalidGrant
            } catch let error as CognitoError {
                throw error.gatehouseError()
            }
            return try await issued(output, method: "refresh", refreshToken: refreshToken, logger: logger)
        }
    }

    /// Ends the refresh token's session here and revokes the token at Cognito (RevokeToken also ends
    /// the access tokens issued from it). Unknown tokens are accepted silently, as RFC 7009 does.
    public func signOut(refreshToken: String, logger: Logger) async throws {
        guard !refreshToken.isEmpty, refreshToken.utf8.count <= 8192 else { return }
        let hash = refreshTokenHash(refreshToken)
        let now = clock.now()
        let ended: (session: String, sub: String)? = try await store.write { tx in
            guard let record = try await tx.refreshToken(hash: hash) else { return nil }
            try await tx.revokeSession(id: record.sessionID, at: now, reason: .signOut)
            return (record.sessionID, record.userID)
        }
        if let ended {
            liveness.forget(sub: ended.sub)
            logger.info("signed out", metadata: ["session.id": .string(ended.session)])
        }
        do {
            _ = try await call("RevokeToken", ["ClientId": .string(settings.clientID), "Token": .string(refreshToken)], logger: logger)
        } catch let error as CognitoError where error.isUnavailable {
            // Ended here already (our refresh refuses it); Cognito's copy lapses at its expiry.
            guard ended != nil else { throw error.gatehouseError() }
            logger.warning("Cognito could not revoke the refresh token; the session is ended here", metadata: ["cognito.error": .string(error.code)])
        } catch {
            logger.info("Cognito did not revoke the refresh token", metadata: ["cognito.error": .string((error as? CognitoError)?.code ?? "unknown")])
        }
    }

    /// GlobalSignOut at Cognito first (retryable if Cognito is down), then every session here.
    public func signOutEverywhere(principal: Principal, logger: Logger) async throws {
        do {
            _ = try await call("GlobalSignOut", ["AccessToken": .string(principal.accessToken)], logger: logger)
        } catch let error as CognitoError where error.code == "NotAuthorizedException" {
            logger.info("Cognito had already signed the token out")
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        try await endSessions(sub: principal.sub, reason: .signOutAll, cutOff: true)
        logger.info("signed out everywhere", metadata: ["user.sub": .string(principal.sub)])
    }

    public func forgotPassword(email rawEmail: String, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let email = try EmailAddress(rawEmail)
        try await consumeMailQuota(email, client: client)
        do {
            _ = try await call("ForgotPassword", ["ClientId": .string(settings.clientID), "Username": .string(email.value)], logger: logger)
        } catch let error as CognitoError where ["UserNotFoundException", "InvalidParameterException", "NotAuthorizedException"].contains(error.code) {
            logger.info("no reset code sent (unknown account or no verified email)")
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        return CodeDelivery(destination: email.masked)
    }

    /// ConfirmForgotPassword, then every session of the user ends (Cognito keeps them; we do not).
    public func resetPassword(email rawEmail: String, code rawCode: String, newPassword: String, client: ClientInfo, logger: Logger) async throws {
        let email = try EmailAddress(rawEmail)
        let code = EmbeddedUserPool.normalizeCode(rawCode)
        let password = try passwordOrFail(newPassword, error: Self.passwordLength)
        try await checkingCode(
            email: email, code: code, client: client, logger: logger, "ConfirmForgotPassword",
            ["ClientId": .string(settings.clientID), "Username": .string(email.value), "ConfirmationCode": .string(code), "Password": .string(password)],
            alsoResetting: [limiter.bucket(limiter.settings.signInPerAccount, email.key)])
        // End every session: ours by sub, Cognito's refresh tokens by AdminUserGlobalSignOut.
        do {
            let user = try await call("AdminGetUser", ["UserPoolId": .string(settings.userPoolID), "Username": .string(email.value)], logger: logger)
            if let sub = CognitoUser(user).sub {
                try await endSessions(sub: sub, reason: .passwordReset, cutOff: true)
            }
            _ = try await call("AdminUserGlobalSignOut", ["UserPoolId": .string(settings.userPoolID), "Username": .string(email.value)], logger: logger)
        } catch let error as CognitoError {
            logger.error("password reset, but ending the other sessions at Cognito failed", metadata: ["cognito.error": .string(error.code)])
        }
        logger.info("password reset")
    }

    /// ChangePassword with the caller's access token; the user's other sessions end.
    public func changePassword(principal: Principal, currentPassword: String, newPassword: String, client: ClientInfo, logger: Logger) async throws {
        let current = try passwordOrFail(currentPassword, error: .invalidCredentials)
        let proposed = try passwordOrFail(newPassword, error: Self.passwordLength)
        let limits = limiter.settings
        let accountBucket = limiter.bucket(limits.signInPerAccount, principal.sub)
        let buckets = [accountBucket, limiter.bucket(limits.signInPerClient, client: client)]
        try await limiter.guarding(buckets, resetOnSuccess: [accountBucket], failureCodes: [.invalidCredentials]) {
            do {
                _ = try await call(
                    "ChangePassword",
                    ["AccessToken": .string(principal.accessToken), "PreviousPassword": .string(current), "ProposedPassword": .string(proposed)],
                    logger: logger)
            } catch let error as CognitoError where error.code == "NotAuthorizedException" {
                throw GatehouseError.invalidCredentials
            } catch let error as CognitoError {
                throw error.gatehouseError()
            }
        }
        try await endSessions(sub: principal.sub, except: principal.sessionID, reason: .passwordChange, cutOff: true)
        logger.info("password changed", metadata: ["user.sub": .string(principal.sub)])
    }

    /// Runs a Cognito call that checks an emailed code, under the code limits. A wrong code counts
    /// against the account and the client; an unknown or already-confirmed account answers exactly
    /// like a wrong code. On success the account's counter (and `alsoResetting`) starts afresh.
    func checkingCode(
        email: EmailAddress, code: String, client: ClientInfo, logger: Logger, _ operation: String, _ input: [String: JSONValue],
        alsoResetting: [RateLimiter.Bucket] = []
    ) async throws {
        let limits = limiter.settings
        let accountBucket = limiter.bucket(limits.codePerAccount, email.key)
        let buckets = [accountBucket, limiter.bucket(limits.codePerClient, client: client)]
        try await limiter.guarding(buckets, resetOnSuccess: [accountBucket] + alsoResetting, failureCodes: [.codeMismatch]) {
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

    /// Sign-up, resend and forgot share the per-address mail quotas (and each client's), so the
    /// answers stay the same whatever the address.
    func consumeMailQuota(_ email: EmailAddress, client: ClientInfo) async throws {
        let mailBuckets = limiter.mailBuckets(emailKey: email.key, client: client)
        try await limiter.consume([mailBuckets.client] + mailBuckets.address)
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Sign in with Apple and Google on Cognito, as the seeds do it but without their bugs: the provider
/// token is verified by us (``SocialSignInService``); the user is found by our own (provider, sub) →
/// Cognito link, so later Apple sign-ins without an email find the same user; a new identity joins an
/// existing Cognito user only when the provider is authoritative for the address
/// (``VerifiedIdentity/emailAuthoritative``), the user's email is verified and the user is one
/// Gatehouse manages (a password account's password is never overwritten); only an `UNCONFIRMED`
/// sign-up holding the address is deleted, and only for an authoritative address (every other status
/// — CONFIRMED, FORCE_CHANGE_PASSWORD, RESET_REQUIRED, ARCHIVED, COMPROMISED, EXTERNAL_PROVIDER,
/// UNKNOWN or anything new — is a real account: linked by the rule above, else a 409); and each user
/// signs in with one random password Gatehouse set once and keeps sealed, never reset afterwards.
extension CognitoIdentityProvider {
    enum Resolved: Sendable {
        case existing(sub: String)
        /// A new user; `replaced` is the unconfirmed sign-up that held the address, if any.
        case created(sub: String, replaced: String?)
    }

    /// Finds or creates the Cognito user a verified identity belongs to, and signs them in.
    /// - Parameters:
    ///   - signIn: The verified identity; its name hint already checked by ``SocialSignIn``.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The tokens and what changed (the user's profile, a replaced sign-up).
    /// - Throws: `conflict`, `forbidden`, an upstream error.
    public func signInWithProvider(_ signIn: ProviderSignIn, client: ClientInfo, logger: Logger) async throws -> ProviderSignInOutcome {
        let identity = signIn.identity
        let hint = signIn.fullNameHint
        var resolved: Resolved?
        for attempt in 0..<3 {
            do {
                resolved = try await resolve(identity, name: identity.name ?? hint, logger: logger)
                break
            } catch let error as CognitoError where error.code == "UsernameExistsException" && attempt < 2 {
                continue  // a concurrent sign-in created the user first; look again
            } catch is StoreConflict where attempt < 2 {
                continue
            }
        }
        guard let resolved else { throw GatehouseError.internalError(cause: "could not resolve the provider identity on Cognito") }
        let sub: String
        let isNew: Bool
        var changed: [DomainEvent] = []
        switch resolved {
        case .existing(let existing): (sub, isNew) = (existing, false)
        case .created(let created, let replaced):
            (sub, isNew) = (created, true)
            if let replaced { changed.append(.userDeleted(sub: replaced)) }
        }
        if identity.provider == .apple, let code = signIn.appleAuthorizationCode, let vault = appleVault {
            await vault.keepRefreshToken(for: sub, identity: identity, code: code, redirectURI: signIn.appleRedirectURI, logger: logger)
        }
        let output = try await adminSignIn(username: sub, logger: logger)
        changed.append(.profileChanged(sub: sub))
        logger.info(
            "signed in",
            metadata: ["user.sub": .string(sub), "auth.method": .string(identity.provider.rawValue), "user.new": .stringConvertible(isNew)]
        )
        let tokens = try await issued(output, method: identity.provider.rawValue, isNewUser: isNew, logger: logger)
        return ProviderSignInOutcome(tokens: tokens, events: changed)
    }

    private func resolve(_ identity: VerifiedIdentity, name: String?, logger: Logger) async throws -> Resolved {
        let provider = identity.provider.rawValue
        if let link = try await store.read({ try await $0.identity(provider: provider, subject: identity.subject) }) {
            do {
                let user = CognitoUser(
                    try await call("AdminGetUser", ["UserPoolId": .string(settings.userPoolID), "Username": .string(link.userID)], logger: logger)
                )
                if let updated = link.refreshed(by: identity) {
                    try await store.write { try await $0.updateIdentity(updated) }
                }
                if user.name == nil, let name { await setName(name, username: link.userID, logger: logger) }
                return .existing(sub: link.userID)
            } catch let error as CognitoError where error.code == "UserNotFoundException" {
                // The Cognito user was deleted behind our back: forget the link and start afresh.
                logger.warning("a linked Cognito user no longer exists; linking anew", metadata: ["user.sub": .string(link.userID)])
                try await store.write { tx in
                    try await tx.deleteIdentities(userID: link.userID)
                    try await tx.deleteCognitoPassword(sub: link.userID)
                }
            } catch let error as CognitoError {
                throw error.gatehouseError()
            }
        }

        guard let rawEmail = identity.email, let email = try? EmailAddress(rawEmail) else {
            throw GatehouseError(.forbidden, "The provider shared no email address, which this user pool needs. Allow email sharing and try again.")
        }
        guard identity.emailVerified else {
            throw GatehouseError(.forbidden, "The provider has not verified this email address, so it cannot be used to sign in.")
        }
        let now = clock.now()
        var replaced: String?
        let existing: CognitoUser?
        do {
            existing = CognitoUser(
                try await call("AdminGetUser", ["UserPoolId": .string(settings.userPoolID), "Username": .string(email.value)], logger: logger)
            )
        } catch let error as CognitoError where error.code == "UserNotFoundException" {
            existing = nil
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        if let existing, let sub = existing.sub {
            // Only an unconfirmed sign-up may be removed, and only for an owner the provider vouches
            // for; every other status is an account someone has (or had) and must keep.
            guard existing.status == CognitoUser.unconfirmed, identity.emailAuthoritative else {
                let managed = try await store.read { try await !$0.identities(userID: sub).isEmpty }
                guard identity.emailAuthoritative, managed, existing.emailVerified, existing.status != CognitoUser.unconfirmed else {
                    // Signing in would mean overwriting the password its owner chose, or trusting an
                    // address the provider does not control.
                    let reason =
                        if !identity.emailAuthoritative { "provider not authoritative for the address" } else if !managed { "password account" } else
                        { "account address not verified" }
                    logger.info(
                        "a verified identity matches a Cognito user it may not join; not linked",
                        metadata: [
                            "user.sub": .string(sub), "cognito.status": .string(existing.status ?? "none"), "reason": .string(reason),
                        ]
                    )
                    throw GatehouseError(.conflict, "An account with this email address already exists. Sign in with your email and password.")
                }
                try await store.write { try await $0.insertIdentity(IdentityRecord(linking: identity, to: sub, at: now)) }
                if existing.name == nil, let name { await setName(name, username: sub, logger: logger) }
                return .existing(sub: sub)
            }
            // An unconfirmed sign-up holds the address: it loses to the verified owner.
            do {
                _ = try await call(
                    "AdminDeleteUser",
                    ["UserPoolId": .string(settings.userPoolID), "Username": .string(existing.username ?? email.value)],
                    logger: logger
                )
            } catch let error as CognitoError where error.code == "UserNotFoundException" {
                // Gone already.
            } catch let error as CognitoError {
                throw error.gatehouseError()
            }
            try await store.write { tx in
                try await tx.recordSubjectRevocation(sub: sub, revokedBefore: now, deletedAt: now)
                try await tx.deleteSessions(userID: sub)
                try await tx.deleteProfile(sub: sub)
                try await tx.deleteCognitoPassword(sub: sub)
            }
            replaced = sub
            logger.warning("an unconfirmed sign-up with this address was replaced by its verified owner", metadata: ["user.sub": .string(sub)])
        }

        // In this pool the address is the username, so the new user holds it either way; without an
        // authoritative provider it stays unverified, and nothing links to it by address later.
        var attributes: [JSONValue] = [
            ["Name": "email", "Value": .string(email.value)], ["Name": "email_verified", "Value": identity.emailAuthoritative ? "true" : "false"],
        ]
        if let name { attributes.append(["Name": "name", "Value": .string(name)]) }
        let created: CognitoUser
        do {
            let output = try await call(
                "AdminCreateUser",
                [
                    "UserPoolId": .string(settings.userPoolID), "Username": .string(email.value), "UserAttributes": .array(attributes),
                    "MessageAction": "SUPPRESS",
                ],
                logger: logger
            )
            created = CognitoUser(output["User"]?.objectValue ?? [:])
        } catch let error as CognitoError where error.code == "UsernameExistsException" {
            throw error
        } catch let error as CognitoError {
            throw error.gatehouseError()
        }
        guard let sub = created.sub else { throw GatehouseError.upstreamUnavailable(cause: "AdminCreateUser returned no sub") }
        try await store.write { try await $0.insertIdentity(IdentityRecord(linking: identity, to: sub, at: now)) }
        return .created(sub: sub, replaced: replaced)
    }

    /// Signs the user in (ADMIN_USER_PASSWORD_AUTH) with the random password Gatehouse keeps for them,
    /// sealed in the store. Only a user without one (created by this sign-in, or before passwords were
    /// kept) gets one set — AdminSetUserPassword, then stored — one caller per user at a time across
    /// instances. A stored password Cognito refuses means the user chose their own (forgot-password)
    /// or an administrator reset it: that password is kept, and the sign-in is a 409, because Cognito
    /// has no password-less admin sign-in (short of Lambda triggers) to sign them in by the identity.
    func adminSignIn(username: String, logger: Logger) async throws -> [String: JSONValue] {
        try await userLocks.withLock(username) {
            try await withLease("cognito-admin-auth:" + username) {
                let context = CognitoPasswordRecord.sealingContext(sub: username)
                do {
                    if let stored = try await store.read({ try await $0.cognitoPassword(sub: username) }) {
                        let password: String
                        do {
                            password = String(decoding: try box.open(stored.sealedPassword, context: context), as: UTF8.self)
                        } catch {
                            throw GatehouseError.internalError(cause: "the stored Cognito password cannot be opened (another master key?)")
                        }
                        do {
                            return try await initiateAdminAuth(username: username, password: password, logger: logger)
                        } catch let error as CognitoError
                            where error.code == "NotAuthorizedException" || error.code == "PasswordResetRequiredException"
                        {
                            logger.warning(
                                "the stored password was refused: the user set their own (forgot-password) or an administrator reset it; not overwriting it",
                                metadata: ["user.sub": .string(username), "cognito.error": .string(error.code)]
                            )
                            throw GatehouseError(.conflict, "This account has a password: sign in with your email and password.")
                        }
                    }
                    let password = Self.randomPassword(random)
                    _ = try await call(
                        "AdminSetUserPassword",
                        [
                            "UserPoolId": .string(settings.userPoolID), "Username": .string(username), "Password": .string(password),
                            "Permanent": true,
                        ],
                        logger: logger
                    )
                    // Stored only once Cognito has it: a password stored but never set would lock the user out.
                    let record = CognitoPasswordRecord(
                        sub: username,
                        sealedPassword: try box.seal(Array(password.utf8), context: context),
                        createdAt: clock.now()
                    )
                    try await store.write { try await $0.upsertCognitoPassword(record) }
                    return try await initiateAdminAuth(username: username, password: password, logger: logger)
                } catch let error as CognitoError where error.code == "InvalidPasswordException" {
                    throw GatehouseError.internalError(cause: "the pool's password policy refused a generated password (longer than 36 characters?)")
                } catch let error as CognitoError {
                    throw error.gatehouseError()
                }
            }
        }
    }

    private func initiateAdminAuth(username: String, password: String, logger: Logger) async throws -> [String: JSONValue] {
        try await call(
            "AdminInitiateAuth",
            [
                "UserPoolId": .string(settings.userPoolID), "ClientId": .string(settings.clientID), "AuthFlow": "ADMIN_USER_PASSWORD_AUTH",
                "AuthParameters": ["USERNAME": .string(username), "PASSWORD": .string(password)],
            ],
            logger: logger
        )
    }

    /// Holds a store lease while `body` runs; waits (up to ~20 s) while another instance holds it.
    func withLease<T: Sendable>(_ name: String, _ body: () async throws -> T) async throws -> T {
        let holder = instanceID
        var delay: UInt64 = 20
        let deadline = clock.now().addingTimeInterval(20)
        while true {
            let now = clock.now()
            if try await store.write({ try await $0.acquireLease(name: name, holder: holder, until: now.addingTimeInterval(30), now: now) }) { break }
            guard now < deadline else { throw GatehouseError.tooManyRequests(retryAfter: 2) }
            try await Task.sleep(nanoseconds: delay * 1_000_000)
            delay = min(delay * 2, 500)
        }
        do {
            let value = try await body()
            try? await store.write { try await $0.releaseLease(name: name, holder: holder) }
            return value
        } catch {
            try? await store.write { try await $0.releaseLease(name: name, holder: holder) }
            throw error
        }
    }

    /// Upper, lower, digit and symbol, then 32 random base64url characters: meets any Cognito policy.
    static func randomPassword(_ random: any RandomSource) -> String {
        "Aa1!" + random.token(bytes: 24)
    }

    func setName(_ name: String, username: String, logger: Logger) async {
        do {
            _ = try await call(
                "AdminUpdateUserAttributes",
                [
                    "UserPoolId": .string(settings.userPoolID), "Username": .string(username),
                    "UserAttributes": [["Name": "name", "Value": .string(name)]],
                ],
                logger: logger
            )
        } catch {
            logger.info(
                "could not store the display name at Cognito",
                metadata: ["cognito.error": .string((error as? CognitoError)?.code ?? "unknown")]
            )
        }
    }
}

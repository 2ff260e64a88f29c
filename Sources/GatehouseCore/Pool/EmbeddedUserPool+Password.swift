import Foundation
import Logging

extension EmbeddedUserPool {
    /// Mails a reset code to the account that owns the address, if any. The answer is the same for
    /// every address — the mail caps included — after the same work: a code row is written either
    /// way (a decoy for an unknown address) and the mail only queued.
    /// - Parameters:
    ///   - email: The address.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `too_many_requests`, a store error.
    public func forgotPassword(email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let now = clock.now()
        let lifetime = settings.resetCodeLifetime
        try await store.write { tx in
            let user = try await tx.user(emailKey: email.key)
            let code = try await storeCode(for: user, emailKey: email.key, purpose: .resetPassword, lifetime: lifetime, now: now, in: tx)
            // A decoy row for an unknown address: the same work either way.
            let request = user.map {
                MailRequest(kind: .resetPassword, to: $0.email ?? email.value, name: $0.nameForMail, code: code, lifetime: Int(lifetime))
            }
            try await mail.enqueue(request, now: now, in: tx)
        }
        mail.committed()
        return CodeDelivery(destination: email.masked)
    }

    /// Sets a new password with the code from the reset mail. This proves the address, so it also
    /// confirms an unconfirmed account (taking it back from whoever started it) and ends every session.
    /// - Parameters:
    ///   - email: The address.
    ///   - code: The normalised code.
    ///   - newPassword: The new password, checked by ``checkNewPassword(_:email:)``.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The sessions ended and the profile changed.
    /// - Throws: `code_mismatch`, `code_expired` (``PasswordAuthentication`` applies the code limits
    ///   and the hashing admission first).
    public func resetPassword(
        email: EmailAddress,
        code: String,
        newPassword: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> [DomainEvent] {
        let newHash = try await hasher.hash(newPassword, lane: client.rateLimitSubject)
        let now = clock.now()
        let origin = AuditOrigin.current

        enum Outcome: Sendable {
            case reset(UserRecord, ended: [String])
            case check(CodeCheck)
        }
        let outcome: Outcome = try await store.write { tx in
            guard var user = try await tx.user(emailKey: email.key) else { return .check(.mismatch) }
            // Greet by name only if the address was proven before this reset (else the name is a stranger's).
            let greeting = user.nameForMail
            let check = try await checkCode(code, for: user, purpose: .resetPassword, now: now, in: tx)
            guard case .accepted = check else { return .check(check) }
            user.passwordHash = newHash
            user.srpVerifier = srpVerifier(newPassword, userID: user.id, passwordHash: newHash)
            // Taking back an unconfirmed account also drops the name whoever started it chose.
            if !user.confirmed { user.name = nil }
            user.confirmed = true
            user.emailVerified = true
            user.updatedAt = now
            try await tx.updateUser(user)
            try await tx.deleteCodes(userID: user.id)
            if try await tx.identity(provider: "password", subject: user.id) == nil {
                try await tx.insertIdentity(passwordIdentity(for: user, at: now))
            }
            let ended = try await tx.revokeSessions(userID: user.id, except: nil, at: now, reason: .passwordReset)
            try await syncProfile(with: user, in: tx)
            let notice = MailRequest(kind: .passwordChanged, to: user.email ?? email.value, name: greeting, reset: true)
            try await mail.enqueue(notice, now: now, in: tx)
            try await audit(.make(.passwordReset, userID: user.id, origin: origin, at: now, random: random), email: user.email, in: tx)
            return .reset(user, ended: ended)
        }
        switch outcome {
        case .reset(let user, let ended):
            mail.committed()
            logger.info("password reset", metadata: ["user.sub": .string(user.id), "sessions.ended": .stringConvertible(ended.count)])
            return [.sessionsEnded(ids: ended), .profileChanged(sub: user.id)]
        case .check(.mismatch):
            throw GatehouseError.codeMismatch
        case .check(.expired):
            throw GatehouseError.codeExpired
        case .check(.accepted):
            throw GatehouseError.internalError(cause: "unreachable reset outcome")
        }
    }

    /// The address's key (the sign-in bucket a wrong current password counts against), or the id of
    /// an account without one.
    /// - Parameter principal: The caller.
    /// - Returns: The bucket's subject.
    /// - Throws: `unauthorized` when the user is gone.
    public func signInAccountKey(of principal: Principal) async throws -> String {
        let user = try await signedInUser(principal)
        return user.emailKey ?? user.id
    }

    /// Changes the password of a signed-in user who knows the current one (the new one is checked
    /// against the policy once the current one passed); the change ends their other sessions.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - currentPassword: The password they have.
    ///   - newPassword: The one they want.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The sessions ended.
    /// - Throws: `unauthorized` when the user is gone, `invalid_credentials`, `invalid_password`.
    public func changePassword(
        principal: Principal,
        currentPassword: String,
        newPassword: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> [DomainEvent] {
        let user = try await signedInUser(principal)
        try await verify(currentPassword, of: user, client: client)
        return try await applyChange(to: user, principal: principal, newPassword: newPassword, client: client, logger: logger)
    }

    /// Checks the caller's current password (step-up).
    /// - Parameters:
    ///   - principal: The caller.
    ///   - password: The password they sent.
    ///   - client: Who asks.
    /// - Throws: `unauthorized` when the user is gone, `invalid_credentials`.
    public func verifyCurrentPassword(principal: Principal, password: String, client: ClientInfo) async throws {
        try await verify(password, of: try await signedInUser(principal), client: client)
    }

    private func signedInUser(_ principal: Principal) async throws -> UserRecord {
        guard let user = try await store.read({ try await $0.user(id: principal.sub) }) else {
            throw GatehouseError.unauthorized(cause: "user no longer exists")
        }
        return user
    }

    /// The same hashing work whether or not the account has a password, and for a password too long to be one.
    private func verify(_ currentPassword: String, of user: UserRecord, client: ClientInfo) async throws {
        var verified = false
        if let hash = user.passwordHash, currentPassword.utf8.count <= ScryptPasswordHasher.maxPasswordBytes {
            verified = try await hasher.verify(currentPassword, against: hash, lane: client.rateLimitSubject)
        } else {
            try await hasher.verifyDummy(currentPassword, lane: client.rateLimitSubject)
        }
        guard verified else { throw GatehouseError(.invalidCredentials, "The current password is not correct.") }
    }

    private func applyChange(
        to user: UserRecord,
        principal: Principal,
        newPassword: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> [DomainEvent] {
        let email = user.emailKey.flatMap { try? EmailAddress($0) }
        try settings.passwordPolicy.validate(newPassword, email: email)
        let newHash = try await hasher.hash(newPassword, lane: client.rateLimitSubject)
        let now = clock.now()
        let origin = AuditOrigin.current
        let ended: [String] = try await store.write { tx in
            guard var current = try await tx.user(id: user.id) else { throw GatehouseError.unauthorized(cause: "user deleted meanwhile") }
            current.passwordHash = newHash
            current.srpVerifier = srpVerifier(newPassword, userID: current.id, passwordHash: newHash)
            current.updatedAt = now
            try await tx.updateUser(current)
            if let address = current.email {
                try await mail.enqueue(MailRequest(kind: .passwordChanged, to: address, name: current.name, reset: false), now: now, in: tx)
            }
            try await audit(.make(.passwordChanged, userID: user.id, origin: origin, at: now, random: random), email: user.email, in: tx)
            return try await tx.revokeSessions(userID: user.id, except: principal.sessionID, at: now, reason: .passwordChange)
        }
        mail.committed()
        logger.info("password changed", metadata: ["user.sub": .string(user.id), "sessions.ended": .stringConvertible(ended.count)])
        return [.sessionsEnded(ids: ended)]
    }
}

extension EmbeddedUserPool {
    /// The sealed SRP verifier of a password being stored with `passwordHash`, when verifiers are made.
    func srpVerifier(_ password: String, userID: String, passwordHash: String) -> SRPVerifier? {
        srpVerifiers?.make(password: password, userID: userID, passwordHash: passwordHash)
    }
}

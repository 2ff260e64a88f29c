import Foundation
import Logging

extension EmbeddedUserPool {
    /// Creates an unconfirmed account and mails a code. For an address that already has an account the
    /// answer is the same (status, shape and — since the password is hashed either way — timing); the
    /// owner gets a notice instead of a code and nothing changes.
    /// - Parameters:
    ///   - email: The address.
    ///   - password: The password, checked by ``checkNewPassword(_:email:)``.
    ///   - name: The display name, checked.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The new account, or the taken address's owner (who gets a notice while the
    ///   address's mail quota lasts: ``sendTakenAddressNotice(to:email:)``).
    /// - Throws: A store error.
    public func signUp(email: EmailAddress, password: String, name: String?, client: ClientInfo, logger: Logger) async throws -> SignUpOutcome {
        let hash = try await hasher.hash(password, lane: client.rateLimitSubject)
        let now = clock.now()
        let newID = random.uuid()
        let lifetime = settings.signUpCodeLifetime
        let (code, codeRecord) = newCode(for: newID, purpose: .confirmSignUp, lifetime: lifetime, now: now)

        enum Outcome: Sendable {
            case created(UserRecord)
            case existing(UserRecord?)
        }
        let srpVerifier = srpVerifiers?.make(password: password, userID: newID, passwordHash: hash)
        let origin = AuditOrigin.current
        let outcome: Outcome
        do {
            outcome = try await store.write { tx in
                if let existing = try await tx.user(emailKey: email.key) { return .existing(existing) }
                let user = UserRecord(
                    id: newID,
                    email: email.value,
                    emailKey: email.key,
                    emailVerified: false,
                    passwordHash: hash,
                    confirmed: false,
                    name: name,
                    createdAt: now,
                    updatedAt: now,
                    srpVerifier: srpVerifier
                )
                try await tx.insertUser(user)
                try await tx.insertIdentity(passwordIdentity(for: user, at: now))
                try await tx.replaceCode(codeRecord)
                // No name: the address is not proven, so nothing the requester typed goes to it.
                let request = MailRequest(kind: .confirmSignUp, to: email.value, name: user.nameForMail, code: code, lifetime: Int(lifetime))
                try await mail.enqueue(request, now: now, in: tx)
                try await audit(
                    .make(.signedUp, userID: user.id, detail: "password", origin: origin, at: now, random: random),
                    email: user.email,
                    in: tx
                )
                return .created(user)
            }
        } catch is StoreConflict {
            // A concurrent sign-up of the same address committed first.
            outcome = .existing(try await store.read { try await $0.user(emailKey: email.key) })
        }

        switch outcome {
        case .created(let user):
            // The first code always goes out (queued with the account); it counts against the address's caps.
            mail.committed()
            logger.info("user signed up", metadata: ["user.sub": .string(user.id)])
            return .created(SignUpResult(userSub: user.id, userConfirmed: false, codeDelivery: CodeDelivery(destination: email.masked)))
        case .existing(let user):
            logger.info("sign-up for an address that already has an account")
            let answer = SignUpResult(userSub: random.uuid(), userConfirmed: false, codeDelivery: CodeDelivery(destination: email.masked))
            return .taken(answer, owner: user)
        }
    }

    /// Queues the notice that someone tried to sign up with the owner's address.
    /// - Parameters:
    ///   - owner: The account holding the address.
    ///   - email: The address as signed up with.
    /// - Throws: A store error.
    public func sendTakenAddressNotice(to owner: UserRecord, email: EmailAddress) async throws {
        let notice = MailRequest(kind: .alreadyRegistered, to: owner.email ?? email.value, name: owner.nameForMail, confirmed: owner.confirmed)
        let now = clock.now()
        try await store.write { tx in try await mail.enqueue(notice, now: now, in: tx) }
        mail.committed()
    }

    /// Confirms the address with the code from the sign-up mail.
    /// - Parameters:
    ///   - email: The address.
    ///   - code: The normalised code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Nothing to publish (an unconfirmed account has no session or cached profile).
    /// - Throws: `code_mismatch`, `code_expired` (``PasswordAuthentication`` applies the code limits).
    public func confirmSignUp(email: EmailAddress, code: String, client: ClientInfo, logger: Logger) async throws -> [DomainEvent] {
        let now = clock.now()
        let origin = AuditOrigin.current
        let result: CodeCheck = try await store.write { tx in
            guard var user = try await tx.user(emailKey: email.key), !user.confirmed else { return .mismatch }
            let check = try await checkCode(code, for: user, purpose: .confirmSignUp, now: now, in: tx)
            guard case .accepted = check else { return check }
            user.confirmed = true
            user.emailVerified = true
            user.updatedAt = now
            try await tx.updateUser(user)
            try await tx.deleteCode(userID: user.id, purpose: .confirmSignUp)
            try await syncProfile(with: user, in: tx)
            try await audit(.make(.signUpConfirmed, userID: user.id, origin: origin, at: now, random: random), email: user.email, in: tx)
            return .accepted
        }
        switch result {
        case .accepted: logger.info("email confirmed")
        case .mismatch: throw GatehouseError.codeMismatch
        case .expired: throw GatehouseError.codeExpired
        }
        return []
    }

    /// Sends a new confirmation code to an unconfirmed account. The answer is the same for every
    /// address — the mail caps included (a cool-down of one code mail per address a minute, and
    /// hourly and daily caps) — after the same work: a code row is written either way (a decoy for
    /// an address without an unconfirmed account) and the mail only queued.
    /// - Parameters:
    ///   - email: The address.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `too_many_requests`, a store error.
    public func resendConfirmationCode(email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let now = clock.now()
        let lifetime = settings.signUpCodeLifetime
        try await store.write { tx in
            let found = try await tx.user(emailKey: email.key)
            let target = found.flatMap { $0.confirmed ? nil : $0 }
            let code = try await storeCode(for: target, emailKey: email.key, purpose: .confirmSignUp, lifetime: lifetime, now: now, in: tx)
            // A decoy row for an address without an unconfirmed account: the same work either way.
            let request = target.map {
                MailRequest(kind: .confirmSignUp, to: $0.email ?? email.value, name: $0.nameForMail, code: code, lifetime: Int(lifetime))
            }
            try await mail.enqueue(request, now: now, in: tx)
        }
        mail.committed()
        return CodeDelivery(destination: email.masked)
    }
}

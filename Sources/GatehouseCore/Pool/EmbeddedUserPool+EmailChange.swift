import Foundation
import GatehouseInfrastructure
import Logging

extension EmbeddedUserPool: EmailChangeStrategy {
    /// How long the code mailed to a new address works.
    static let emailChangeCodeLifetime: TimeInterval = 3600

    /// Mails a code to the new address (``EmailChangeStrategy``). A pending change is one row of the
    /// codes table (purpose `change_email`, the code's keyed hash bound to the new address, and the
    /// address itself), replaced whole by every request: a later request wins, and an earlier code
    /// redeems nothing. An address another confirmed account holds gets a fresh code no one is sent
    /// (so the earlier pending change ends here too, as it would with a free address) and its owner a
    /// notice: the same store work and the same answer. An address held only by an unconfirmed
    /// sign-up is treated as free: the sign-up loses it to whoever proves the mailbox.
    public func startEmailChange(principal: Principal, email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let now = clock.now()
        let sub = principal.sub
        let lifetime = Self.emailChangeCodeLifetime
        let (code, fresh) = newCode(for: sub, purpose: .changeEmail, lifetime: lifetime, now: now, bound: email.key)
        var record = fresh
        record.address = email.value
        let pending = record
        let origin = AuditOrigin.current
        enum Outcome: Sendable {
            case mailed
            case noticed
            case same
        }
        let outcome: Outcome = try await store.write { tx in
            guard let user = try await tx.user(id: sub) else { throw GatehouseError.unauthorized(cause: "user gone") }
            if user.emailKey == email.key { return .same }
            try await tx.replaceCode(pending)
            // The address asked for stays out of the log: whether it belongs to someone else is not the log's to tell.
            try await audit(.make(.emailChangeRequested, userID: sub, origin: origin, at: now, random: random), in: tx)
            if let owner = try await tx.user(emailKey: email.key), owner.confirmed {
                let notice = MailRequest(kind: .emailInUse, to: owner.email ?? email.value, name: owner.nameForMail)
                try await mail.enqueue(notice, now: now, in: tx)
                return .noticed
            }
            // No name: the address is not proven yet, so nothing of the account's goes to it.
            let request = MailRequest(kind: .confirmEmailChange, to: email.value, code: code, lifetime: Int(lifetime))
            try await mail.enqueue(request, now: now, in: tx)
            return .mailed
        }
        switch outcome {
        case .same:
            throw GatehouseError.invalidRequest("This is already the account's email address.")
        case .mailed, .noticed:
            mail.committed()
            logger.info("email change started", metadata: ["user.sub": .string(sub)])
            return CodeDelivery(destination: email.masked)
        }
    }

    /// Switches the account to the pending address (``EmailChangeStrategy``), in one transaction: the
    /// code's try is spent on the row as it is now (so a code always meets the address it was mailed
    /// to, never one a concurrent request put there), the user's address and verified flag, the
    /// password identity's copy and the app profile change, the pending codes that went to the old
    /// address (reset, sign-up) die with it, and the old address is sent a notice. An unconfirmed
    /// sign-up holding the address is removed in the same transaction; a confirmed account that took it
    /// since the code was sent wins (`conflict`, nothing changed). A unique-key race with a concurrent
    /// sign-up of the address rolls everything back and looks again.
    public func confirmEmailChange(principal: Principal, code: String, client: ClientInfo, logger: Logger) async throws -> [DomainEvent] {
        let sub = principal.sub
        let origin = AuditOrigin.current
        var outcome: EmailSwitch?
        for attempt in 0..<3 {
            do {
                let now = clock.now()
                outcome = try await store.write { tx in try await switchEmail(sub: sub, code: code, now: now, origin: origin, in: tx) }
                break
            } catch is StoreConflict where attempt < 2 {
                continue  // an account took the address meanwhile (a sign-up or a sign-in); look again
            } catch is StoreConflict {
                throw Self.addressTaken
            }
        }
        switch outcome {
        case .switched(let claimed):
            mail.committed()
            logger.info("email address changed", metadata: ["user.sub": .string(sub)])
            var events: [DomainEvent] = [.profileChanged(sub: sub)]
            if let claimed {
                logger.warning("an unconfirmed sign-up with the new address was replaced by its proven owner", metadata: ["user.sub": .string(sub)])
                events.append(.userDeleted(sub: claimed))
            }
            return events
        case .taken:
            throw Self.addressTaken
        case .check(.expired):
            throw GatehouseError.codeExpired
        case .check, nil:
            throw GatehouseError.codeMismatch
        }
    }

    /// What redeeming an email-change code did.
    enum EmailSwitch: Sendable {
        /// The account has the new address; `claimed` is the unconfirmed sign-up removed for it.
        case switched(claimed: String?)
        /// A confirmed account holds the address now.
        case taken
        /// The code did not redeem.
        case check(CodeCheck)
    }

    static var addressTaken: GatehouseError {
        GatehouseError(.conflict, "This address now belongs to another account. Nothing was changed.")
    }

    private func switchEmail(sub: String, code: String, now: Date, origin: AuditOrigin, in tx: any StoreTransaction) async throws -> EmailSwitch {
        guard var user = try await tx.user(id: sub) else { throw GatehouseError.unauthorized(cause: "user gone") }
        guard let pending = try await tx.spendCodeAttempt(userID: sub, purpose: .changeEmail, maxAttempts: settings.maxCodeAttempts) else {
            // No change pending, or its tries are used up: `expired` only to the right code.
            guard let spent = try await tx.code(userID: sub, purpose: .changeEmail), let email = Self.address(of: spent) else {
                return .check(.mismatch)
            }
            let presented = codeHash(userID: sub, purpose: .changeEmail, code: code, bound: email.key)
            return .check(ConstantTime.equals(presented, spent.codeHash) ? .expired : .mismatch)
        }
        guard let email = Self.address(of: pending) else { return .check(.mismatch) }
        let presented = codeHash(userID: sub, purpose: .changeEmail, code: code, bound: email.key)
        guard ConstantTime.equals(presented, pending.codeHash) else { return .check(.mismatch) }
        guard pending.expiresAt > now else { return .check(.expired) }
        var claimed: String?
        if let holder = try await tx.user(emailKey: email.key), holder.id != sub {
            guard !holder.confirmed else {
                try await tx.deleteCode(userID: sub, purpose: .changeEmail)
                return .taken
            }
            try await tx.revokeSessions(userID: holder.id, except: nil, at: now, reason: .accountClaimed)
            try await tx.deleteSessions(userID: holder.id)
            try await tx.deleteCodes(userID: holder.id)
            try await tx.deleteIdentities(userID: holder.id)
            try await tx.deleteProfile(sub: holder.id)
            try await tx.deleteUser(id: holder.id)
            claimed = holder.id
        }
        let old = user.email
        user.email = email.value
        user.emailKey = email.key
        user.emailVerified = true
        user.updatedAt = now
        try await tx.updateUser(user)
        if var identity = try await tx.identity(provider: "password", subject: sub) {
            identity.email = email.value
            identity.emailVerified = true
            try await tx.updateIdentity(identity)
        }
        for purpose in [OneTimeCodeRecord.Purpose.changeEmail, .resetPassword, .confirmSignUp] {
            try await tx.deleteCode(userID: sub, purpose: purpose)
        }
        try await syncProfile(with: user, in: tx)
        try await audit(.make(.emailChanged, userID: sub, origin: origin, at: now, random: random), email: email.value, in: tx)
        if let claimed {
            try await audit(.make(.accountDeleted, userID: claimed, detail: "account_claimed", origin: origin, at: now, random: random), in: tx)
        }
        if let old {
            try await mail.enqueue(MailRequest(kind: .emailChanged, to: old, name: user.name, address: email.masked), now: now, in: tx)
        }
        return .switched(claimed: claimed)
    }

    /// The address a `change_email` code row holds, if it reads.
    private static func address(of record: OneTimeCodeRecord) -> EmailAddress? {
        record.address.flatMap { try? EmailAddress($0) }
    }
}

import Foundation

extension EmbeddedUserPool: AdministrationStrategy {
    /// A page of users (``AdministrationStrategy``).
    public func adminUsers(_ query: UserQuery) async throws -> [UserRecord] {
        try await store.read { try await $0.users(matching: query) }
    }

    /// One user's details (``AdministrationStrategy``).
    public func adminUser(id: String) async throws -> AdminUserDetails? {
        try await store.read { tx in
            guard let user = try await tx.user(id: id) else { return nil }
            return AdminUserDetails(
                user: user,
                profile: try await tx.profile(sub: id),
                identities: try await tx.identities(userID: id),
                activeSessionIDs: try await tx.activeSessionIDs(userID: id),
                passkeys: try await tx.passkeys(userID: id),
                mfaEnabled: try await tx.totp(userID: id)?.confirmedAt != nil
            )
        }
    }

    /// Creates a user (``AdministrationStrategy``): the password identity when a password is given.
    public func adminCreateUser(_ new: NewUser, origin: AuditOrigin) async throws -> UserRecord {
        let id = random.uuid()
        var hash: String?
        var verifier: SRPVerifier?
        if let password = new.password {
            try settings.passwordPolicy.validate(password, email: new.email)
            let made = try await hasher.hash(password, lane: "admin")
            (hash, verifier) = (made, srpVerifier(password, userID: id, passwordHash: made))
        }
        let now = clock.now()
        let hasPassword = hash != nil
        let user = UserRecord(
            id: id,
            email: new.email.value,
            emailKey: new.email.key,
            emailVerified: new.emailVerified,
            passwordHash: hash,
            confirmed: new.confirmed,
            name: new.name,
            createdAt: now,
            updatedAt: now,
            srpVerifier: verifier
        )
        do {
            try await store.write { tx in
                try await tx.insertUser(user)
                if hasPassword {
                    try await tx.insertIdentity(passwordIdentity(for: user, at: now))
                    try await tx.appendAudit(.make(.passwordSet, userID: id, origin: origin, at: now, random: random))
                }
                try await audit(
                    .make(.userCreated, userID: id, detail: new.confirmed ? "confirmed" : "unconfirmed", origin: origin, at: now, random: random),
                    email: user.email,
                    in: tx
                )
            }
        } catch is StoreConflict {
            throw GatehouseError(.conflict, "A user with this email address exists already.")
        }
        return user
    }

    /// Changes a user (``AdministrationStrategy``).
    public func adminUpdateUser(id: String, _ changes: UserChanges, origin: AuditOrigin) async throws -> (UserRecord, [DomainEvent]) {
        let now = clock.now()
        return try await store.write { tx in
            guard var user = try await tx.user(id: id) else { throw Self.noSuchUser }
            var events: [DomainEvent] = []
            var fields: [String] = []
            if let name = changes.name, name != user.name { (user.name, fields) = (name, fields + ["name"]) }
            if let verified = changes.emailVerified, verified != user.emailVerified {
                (user.emailVerified, fields) = (verified, fields + ["email_verified"])
            }
            if !fields.isEmpty {
                user.updatedAt = now
                try await tx.updateUser(user)
                try await syncProfile(with: user, in: tx)
                events.append(.profileChanged(sub: id))
                try await tx.appendAudit(
                    .make(.userUpdated, userID: id, detail: fields.joined(separator: ","), origin: origin, at: now, random: random)
                )
            }
            if let disabled = changes.disabled, disabled != (user.disabledAt != nil) {
                user.disabledAt = disabled ? now : nil
                user.updatedAt = now
                try await tx.updateUser(user)
                try await audit(
                    .make(disabled ? .userDisabled : .userEnabled, userID: id, origin: origin, at: now, random: random),
                    email: user.email,
                    in: tx
                )
                if disabled {
                    let ended = try await tx.revokeSessions(userID: id, except: nil, at: now, reason: .userDisabled)
                    events.append(.sessionsEnded(ids: ended))
                }
            }
            return (user, events)
        }
    }

    /// Ends every session of a user (``AdministrationStrategy``).
    public func adminSignOut(id: String, origin: AuditOrigin) async throws -> [DomainEvent] {
        let now = clock.now()
        return try await store.write { tx in
            guard try await tx.user(id: id) != nil else { throw Self.noSuchUser }
            let ended = try await tx.revokeSessions(userID: id, except: nil, at: now, reason: .adminSignOut)
            try await audit(.make(.userSignedOut, userID: id, detail: "\(ended.count) sessions", origin: origin, at: now, random: random), in: tx)
            return [.sessionsEnded(ids: ended)]
        }
    }

    static var noSuchUser: GatehouseError { GatehouseError(.notFound, "No such user.") }
}

import Foundation
import Logging

/// What operators do: the admin API (`/admin/`, with a key) and `gatehouse users`, `gatehouse audit` and
/// `gatehouse admin-keys` at the terminal call the same methods. Each change is audited in its own
/// transaction (by the strategy); each read writes an `admin_read` row. The actor is
/// ``AuditOrigin/current``: `admin:<key name>` for the API, `cli` at the terminal.
public struct Administration: Sendable {
    let strategy: (any AdministrationStrategy)?
    let accounts: Accounts
    let store: any GatehouseStore
    let domainEvents: DomainEvents
    let clock: any TimeSource
    let random: any RandomSource
    /// The webhook endpoints (`gatehouse webhooks`, `/admin/webhooks`).
    public let webhooks: Webhooks

    /// The use case.
    /// - Parameters:
    ///   - strategy: The embedded pool, or `nil` with Cognito (whose users are managed in AWS).
    ///   - accounts: Deletes accounts as `DELETE /me` does (Apple revocation included).
    ///   - store: Admin keys and the audit log.
    ///   - domainEvents: Where ended sessions and changed profiles are published.
    ///   - clock: The time source.
    ///   - random: Makes keys and entry ids.
    ///   - webhooks: The webhook endpoints.
    public init(
        strategy: (any AdministrationStrategy)?,
        accounts: Accounts,
        store: any GatehouseStore,
        domainEvents: DomainEvents,
        clock: any TimeSource,
        random: any RandomSource,
        webhooks: Webhooks
    ) {
        self.strategy = strategy
        self.accounts = accounts
        self.store = store
        self.domainEvents = domainEvents
        self.clock = clock
        self.random = random
        self.webhooks = webhooks
    }

    func pool() throws -> any AdministrationStrategy {
        guard let strategy else {
            throw GatehouseError(.forbidden, "Users are managed in Amazon Cognito with this configuration; use the AWS console or CLI.")
        }
        return strategy
    }

    // MARK: Keys

    /// Checks an admin key: its shape, then its hash among the live keys.
    /// - Parameter presented: The bearer credential.
    /// - Returns: The key's record (its name is the audit actor).
    /// - Throws: `unauthorized` for anything that is not a live key (a refused call is audited).
    public func authenticate(key presented: String) async throws -> AdminKeyRecord {
        let now = clock.now()
        let origin = AuditOrigin.current
        guard let hash = AdminKey.hash(presented), let key = try await store.read({ try await $0.adminKey(hash: hash) }), key.revokedAt == nil else {
            try await audit(.adminRefused, userID: nil, detail: "invalid or revoked key", origin: origin)
            throw GatehouseError.unauthorized(cause: "not a live admin key")
        }
        if (key.lastUsedAt ?? .distantPast) < now.addingTimeInterval(-60) {
            try await store.write { tx in try await tx.touchAdminKey(id: key.id, at: now) }
        }
        return key
    }

    /// Creates a key.
    /// - Parameter name: The operator's name for it.
    /// - Returns: The key, to be shown once.
    /// - Throws: `invalid_request` for a bad name, `conflict` when a live key has it.
    public func createKey(name: String) async throws -> String {
        guard AdminKey.isValidName(name) else {
            throw GatehouseError.invalidRequest("A key name is 1 to 64 letters, digits, dots, dashes or underscores.")
        }
        let key = AdminKey.generate(random)
        guard let hash = AdminKey.hash(key) else { throw GatehouseError.internalError(cause: "a generated admin key has no hash") }
        let now = clock.now()
        let origin = AuditOrigin.current
        let record = AdminKeyRecord(id: random.uuidV7(at: now), name: name, keyHash: hash, createdAt: now)
        do {
            try await store.write { tx in
                try await tx.insertAdminKey(record)
                try await tx.appendAudit(.make(.adminKeyCreated, userID: nil, detail: name, origin: origin, at: now, random: random))
            }
        } catch is StoreConflict {
            throw GatehouseError(.conflict, "A live key is named \(name) already; revoke it first or pick another name.")
        }
        return key
    }

    /// Every key, live and revoked (never the keys themselves).
    /// - Returns: The records.
    /// - Throws: A store error.
    public func keys() async throws -> [AdminKeyRecord] {
        try await store.read { try await $0.adminKeys() }
    }

    /// Revokes the live key with this name; calls with it fail at once on every instance (keys are
    /// looked up on each call, never cached).
    /// - Parameter name: The key's name.
    /// - Throws: `not_found` when no live key has the name.
    public func revokeKey(name: String) async throws {
        let now = clock.now()
        let origin = AuditOrigin.current
        let revoked = try await store.write { tx in
            guard try await tx.revokeAdminKey(name: name, at: now) else { return false }
            try await tx.appendAudit(.make(.adminKeyRevoked, userID: nil, detail: name, origin: origin, at: now, random: random))
            return true
        }
        guard revoked else { throw GatehouseError(.notFound, "No live key is named \(name).") }
    }

    // MARK: Users

    /// A page of users, audited as a read.
    /// - Parameter query: The filters and position.
    /// - Returns: The users.
    /// - Throws: A store error; `forbidden` with Cognito.
    public func users(_ query: UserQuery) async throws -> [UserRecord] {
        let users = try await pool().adminUsers(query)
        try await audit(.adminRead, userID: query.sub, detail: "users", origin: .current)
        return users
    }

    /// One user, audited as a read.
    /// - Parameter id: The sub.
    /// - Returns: The details.
    /// - Throws: `not_found`.
    public func user(id: String) async throws -> AdminUserDetails {
        guard let details = try await pool().adminUser(id: id) else { throw GatehouseError(.notFound, "No such user.") }
        try await audit(.adminRead, userID: id, detail: "user", origin: .current)
        return details
    }

    /// Creates a user.
    /// - Parameter new: The user.
    /// - Returns: The stored user.
    /// - Throws: `invalid_password`, `conflict`.
    public func createUser(_ new: NewUser) async throws -> UserRecord {
        var new = new
        new.name = try InputRules.displayName(new.name)
        return try await pool().adminCreateUser(new, origin: .current)
    }

    /// Changes a user; disabling ends the user's sessions at once on every instance.
    /// - Parameters:
    ///   - id: The sub.
    ///   - changes: What to change.
    /// - Returns: The user after the change.
    /// - Throws: `not_found`, `invalid_request` for an empty change.
    public func updateUser(id: String, _ changes: UserChanges) async throws -> UserRecord {
        guard !changes.isEmpty else { throw GatehouseError.invalidRequest("Give at least one of name, email_verified and disabled.") }
        var changes = changes
        if let name = changes.name { changes.name = .some(try InputRules.displayName(name)) }
        let (user, events) = try await pool().adminUpdateUser(id: id, changes, origin: .current)
        domainEvents.publish(events)
        return user
    }

    /// Ends every session of a user.
    /// - Parameter id: The sub.
    /// - Returns: How many sessions ended.
    /// - Throws: `not_found`.
    public func signOut(id: String) async throws -> Int {
        let events = try await pool().adminSignOut(id: id, origin: .current)
        domainEvents.publish(events)
        return events.reduce(0) { count, event in
            if case .sessionsEnded(let ids) = event { return count + ids.count }
            return count
        }
    }

    /// Deletes a user as `DELETE /me` does (every record, Apple tokens revoked), without a step-up.
    /// - Parameters:
    ///   - id: The sub.
    ///   - logger: The caller's logger.
    /// - Throws: `not_found`.
    public func deleteUser(id: String, logger: Logger) async throws {
        guard try await !pool().adminUsers(UserQuery(sub: id, limit: 1)).isEmpty else { throw GatehouseError(.notFound, "No such user.") }
        try await accounts.delete(userID: id, logger: logger)
    }

    // MARK: Audit

    /// A page of the audit log, itself audited as a read.
    /// - Parameter query: The filters and the cursor.
    /// - Returns: The rows, newest first.
    /// - Throws: A store error.
    public func auditLog(_ query: AuditQuery) async throws -> [AuditEntry] {
        let entries = try await store.read { try await $0.auditEntries(query) }
        try await audit(.adminRead, userID: query.userID, detail: "audit", origin: .current)
        return entries
    }

    /// Audits a refused admin call (a browser's request, no key).
    /// - Parameter reason: Why, in a few words.
    /// - Throws: A store error.
    public func refuse(_ reason: String) async throws {
        try await audit(.adminRefused, userID: nil, detail: reason, origin: .current)
    }

    func audit(_ event: AuditEvent, userID: String?, detail: String?, origin: AuditOrigin) async throws {
        let entry = AuditEntry.make(event, userID: userID, detail: detail, origin: origin, at: clock.now(), random: random)
        try await store.write { tx in try await tx.appendAudit(entry) }
    }
}

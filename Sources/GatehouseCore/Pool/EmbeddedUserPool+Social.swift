import Foundation
import Logging

extension EmbeddedUserPool {
    enum Resolution: Sendable {
        /// A returning user; `changed` when the sign-in updated what their profile shows (the user's
        /// name or address, a linked identity), so only then is ``DomainEvent/profileChanged(sub:)`` published.
        case existing(UserRecord, changed: Bool)
        case created(UserRecord, replaced: String?)

        var user: UserRecord {
            switch self {
            case .existing(let user, _), .created(let user, _): user
            }
        }
    }

    /// Finds or creates the user a verified provider identity belongs to, and signs them in.
    ///
    /// Identities are keyed on (provider, `sub`), never on email. A new identity joins an existing
    /// account only when the account's address is verified and the provider is authoritative for it
    /// (``VerifiedIdentity/emailAuthoritative``: Apple, or Google for gmail.com, googlemail.com and
    /// Workspace accounts); an unconfirmed password sign-up with the same address never absorbs it —
    /// it is removed (with its codes and sessions) and the authoritative owner gets the address, so
    /// whoever started that sign-up never gets in.
    ///
    /// A provider that verified an address it is not authoritative for (a consumer Google account
    /// registered with an outside address) links nothing and claims nothing: its new account shows
    /// the address but does not hold it (no `emailKey`, `email_verified` false), so a later
    /// authoritative sign-in or password sign-up with that address neither joins nor collides with it.
    ///
    /// Finding the user and recording the session are one transaction, so a returning user costs one
    /// write and no separate read. On SQLite (one writer) the account also cannot be deleted between
    /// the two; on PostgreSQL at READ COMMITTED a concurrent deletion can still interleave.
    ///
    /// - Parameters:
    ///   - signIn: The verified identity; its name hint already checked by ``SocialSignIn``.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The tokens and what changed (the profile of a returning user, a replaced sign-up).
    /// - Throws: A store error.
    public func signInWithProvider(_ signIn: ProviderSignIn, client: ClientInfo, logger: Logger) async throws -> ProviderSignInOutcome {
        let identity = signIn.identity
        let hint = signIn.fullNameHint
        let start = issuer.prepare(method: identity.provider.rawValue, client: client)
        var outcome: (resolution: Resolution, session: SessionRecord)?
        for attempt in 0..<3 {
            do {
                outcome = try await store.write { tx in
                    let resolution = try await resolve(identity, nameHint: hint, start: start, in: tx)
                    return (resolution, try await issuer.record(start, for: resolution.user, in: tx))
                }
                break
            } catch is StoreConflict where attempt < 2 {
                continue  // a concurrent sign-in or sign-up committed first; look again
            }
        }
        guard let (resolution, session) = outcome else { throw GatehouseError.internalError(cause: "could not resolve the provider identity") }
        let user = resolution.user
        let extra = try await issuer.hookClaims(afterRecording: session, user: user)
        let isNew: Bool
        var changed: [DomainEvent] = []
        switch resolution {
        case .existing(let existing, let profileChanged):
            isNew = false
            if profileChanged { changed.append(.profileChanged(sub: existing.id)) }
        case .created(let created, let replaced):
            isNew = true
            if let replaced {
                changed.append(.userDeleted(sub: replaced))
                logger.warning(
                    "an unconfirmed sign-up with this address was replaced by its verified owner",
                    metadata: ["user.sub": .string(created.id)]
                )
            }
        }
        if identity.provider == .apple, let code = signIn.appleAuthorizationCode, let vault = appleVault {
            await vault.keepRefreshToken(for: user.id, identity: identity, code: code, redirectURI: signIn.appleRedirectURI, logger: logger)
        }
        logger.info(
            "signed in",
            metadata: ["user.sub": .string(user.id), "auth.method": .string(identity.provider.rawValue), "user.new": .stringConvertible(isNew)]
        )
        return ProviderSignInOutcome(
            tokens: try issuer.issueTokens(start, session: session, user: user, nonce: signIn.nonce, isNewUser: isNew, extra: extra),
            events: changed
        )
    }

    private func resolve(_ identity: VerifiedIdentity, nameHint: String?, start: SessionStart, in tx: any StoreTransaction) async throws -> Resolution
    {
        let now = start.at
        // The lookup key of the provider's email, only where the provider is authoritative for it: only
        // such an address links, replaces an unconfirmed sign-up, or becomes an account's unique key.
        let verifiedEmailKey = { identity.emailAuthoritative ? identity.email.flatMap { try? EmailAddress($0) }?.key : nil }
        if let (found, current) = try await tx.identityWithUser(provider: identity.provider.rawValue, subject: identity.subject) {
            var user = current
            let refreshedLink = found.refreshed(by: identity)
            if let refreshedLink { try await tx.updateIdentity(refreshedLink) }
            var changed = false
            if user.name == nil, let name = identity.name ?? nameHint {
                user.name = name
                changed = true
            }
            if user.email == nil, let email = identity.email {
                user.email = email
                if let verifiedKey = verifiedEmailKey(), try await tx.user(emailKey: verifiedKey) == nil {
                    user.emailKey = verifiedKey
                    user.emailVerified = true
                }
                changed = true
            }
            if changed {
                user.updatedAt = now
                try await tx.updateUser(user)
                try await syncProfile(with: user, in: tx)
            }
            return .existing(user, changed: changed || refreshedLink != nil)
        }

        var replaced: String?
        let verifiedKey = verifiedEmailKey()
        if let verifiedKey, var owner = try await tx.user(emailKey: verifiedKey) {
            if owner.confirmed && owner.emailVerified {
                try await tx.insertIdentity(IdentityRecord(linking: identity, to: owner.id, at: now))
                if owner.name == nil, let name = identity.name ?? nameHint {
                    owner.name = name
                    owner.updatedAt = now
                    try await tx.updateUser(owner)
                }
                return .existing(owner, changed: true)
            }
            // An unconfirmed sign-up holds the address: it loses to the verified owner.
            try await tx.revokeSessions(userID: owner.id, except: nil, at: now, reason: .accountClaimed)
            try await tx.deleteSessions(userID: owner.id)
            try await tx.deleteCodes(userID: owner.id)
            try await tx.deleteIdentities(userID: owner.id)
            try await tx.deleteProfile(sub: owner.id)
            try await tx.deleteUser(id: owner.id)
            replaced = owner.id
        }
        // Without an authoritative address the account shows the email but neither holds it nor vouches for it.
        let user = UserRecord(
            id: random.uuid(),
            email: identity.email,
            emailKey: verifiedKey,
            emailVerified: verifiedKey != nil,
            passwordHash: nil,
            confirmed: true,
            name: identity.name ?? nameHint,
            createdAt: now,
            updatedAt: now
        )
        try await tx.insertUser(user)
        try await tx.insertIdentity(IdentityRecord(linking: identity, to: user.id, at: now))
        let created = AuditEntry.make(.signedUp, userID: user.id, detail: identity.provider.rawValue, origin: start.origin, at: now, random: random)
        try await audit(created, email: user.email, in: tx)
        return .created(user, replaced: replaced)
    }
}

import Logging

/// The app's own user record (GET and PATCH /me), created just in time on the first authenticated
/// call from what the identity provider knows, and keyed by its `sub`. Reads go through the
/// ``ProfileCache``; changes publish ``DomainEvent/profileChanged(sub:)``, which empties it.
public struct Profiles: Sendable {
    let store: any GatehouseStore
    let strategy: any AccountStrategy
    let clock: any TimeSource
    let cache: ProfileCache?
    let domainEvents: DomainEvents

    /// Creates the use case.
    /// - Parameters:
    ///   - store: Where profiles live.
    ///   - strategy: The active provider's account strategy (the seed, where names are kept).
    ///   - clock: The time source.
    ///   - cache: The profile cache, if profiles are cached.
    ///   - domainEvents: Where profile changes are published.
    public init(
        store: any GatehouseStore,
        strategy: any AccountStrategy,
        clock: any TimeSource,
        cache: ProfileCache? = nil,
        domainEvents: DomainEvents
    ) {
        self.store = store
        self.strategy = strategy
        self.clock = clock
        self.cache = cache
        self.domainEvents = domainEvents
    }

    /// The caller's profile, created from the provider's seed if it does not exist yet.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - logger: The request's logger.
    /// - Returns: The profile and its linked identities.
    /// - Throws: `unauthorized` when the user is gone, or a store error.
    public func view(for principal: Principal, logger: Logger) async throws -> ProfileView {
        let sub = principal.sub
        if let cached = cache?.get(sub) { return cached }
        let existing: ProfileView? = try await store.read { tx in
            guard let profile = try await tx.profile(sub: sub) else { return nil }
            return ProfileView(profile: profile, identities: try await Self.linked(tx, sub))
        }
        if let existing {
            cache?.put(existing)
            return existing
        }
        let seed = try await strategy.profileSeed(for: principal, logger: logger)
        let now = clock.now()
        let view: ProfileView = try await store.write { tx in
            let profile = try await tx.insertProfileIfAbsent(
                ProfileRecord(
                    sub: sub,
                    email: seed.email,
                    emailVerified: seed.emailVerified,
                    fullName: seed.name,
                    phone: seed.phone,
                    phoneVerified: seed.phone != nil,
                    createdAt: now,
                    updatedAt: now
                )
            )
            return ProfileView(profile: profile, identities: try await Self.linked(tx, sub))
        }
        logger.info("profile created just in time", metadata: ["user.sub": .string(sub)])
        cache?.put(view)
        return view
    }

    /// Updates the fields given; `fullName: .some(nil)` clears the name. The provider keeps the new
    /// name where it reads names from (the embedded pool's user, for new ID tokens).
    /// - Parameters:
    ///   - principal: The caller.
    ///   - fullName: `.none` to leave the name, `.some(nil)` to clear it, else the name as typed.
    ///   - logger: The request's logger.
    /// - Returns: The updated profile.
    /// - Throws: `invalid_request` for a bad name, `not_found` when the profile vanished meanwhile.
    public func update(for principal: Principal, fullName rawName: String??, logger: Logger) async throws -> ProfileView {
        let fullName: String?? = try rawName.map { try InputRules.displayName($0) }
        _ = try await view(for: principal, logger: logger)
        let sub = principal.sub
        let now = clock.now()
        let strategy = self.strategy
        defer { domainEvents.publish(.profileChanged(sub: sub)) }
        return try await store.write { tx in
            guard var profile = try await tx.profile(sub: sub) else {
                throw GatehouseError(.notFound, "The profile no longer exists.")
            }
            if let fullName {
                profile.fullName = fullName
                try await strategy.recordDisplayName(fullName, sub: sub, at: now, in: tx)
            }
            profile.updatedAt = now
            try await tx.updateProfile(profile)
            return ProfileView(profile: profile, identities: try await Self.linked(tx, sub))
        }
    }

    static func linked(_ tx: any StoreTransaction, _ sub: String) async throws -> [ProfileView.LinkedIdentity] {
        try await tx.identities(userID: sub)
            .sorted { ($0.linkedAt, $0.provider) < ($1.linkedAt, $1.provider) }
            .map {
                ProfileView.LinkedIdentity(
                    provider: $0.provider,
                    linkedAt: $0.linkedAt,
                    isPrivateEmail: $0.isPrivateEmail,
                    emailForwarding: $0.emailForwarding
                )
            }
    }
}

import Foundation
import Logging

/// The app's own user record (GET/PATCH/DELETE /me), created just in time on the first
/// authenticated call from what the identity provider knows, and keyed by its `sub`.
public struct ProfileService: Sendable {
    let store: any GatehouseStore
    let provider: any IdentityProvider
    let clock: any TimeSource
    let cache: ProfileCache?

    public init(store: any GatehouseStore, provider: any IdentityProvider, clock: any TimeSource, cache: ProfileCache? = nil) {
        self.store = store
        self.provider = provider
        self.clock = clock
        self.cache = cache
    }

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
        let seed = try await provider.profileSeed(for: principal, logger: logger)
        let now = clock.now()
        let view: ProfileView = try await store.write { tx in
            let profile = try await tx.insertProfileIfAbsent(
                ProfileRecord(sub: sub, email: seed.email, emailVerified: seed.emailVerified, fullName: seed.name, createdAt: now, updatedAt: now))
            return ProfileView(profile: profile, identities: try await Self.linked(tx, sub))
        }
        logger.info("profile created just in time", metadata: ["user.sub": .string(sub)])
        cache?.put(view)
        return view
    }

    /// Updates the fields given; `fullName: .some(nil)` clears the name.
    public func update(for principal: Principal, fullName: String??, logger: Logger) async throws -> ProfileView {
        _ = try await view(for: principal, logger: logger)
        let sub = principal.sub
        let now = clock.now()
        defer { cache?.invalidate(sub) }
        return try await store.write { tx in
            guard var profile = try await tx.profile(sub: sub) else {
                throw GatehouseError(.notFound, "The profile no longer exists.")
            }
            if let fullName {
                profile.fullName = fullName
                // The embedded pool's user carries the name into new ID tokens.
                if var user = try await tx.user(id: sub) {
                    user.name = fullName
                    user.updatedAt = now
                    try await tx.updateUser(user)
                }
            }
            profile.updatedAt = now
            try await tx.updateProfile(profile)
            return ProfileView(profile: profile, identities: try await Self.linked(tx, sub))
        }
    }

    public func delete(for principal: Principal, logger: Logger) async throws {
        defer { cache?.invalidate(principal.sub) }
        try await provider.deleteAccount(principal: principal, logger: logger)
    }

    static func linked(_ tx: any StoreTransaction, _ sub: String) async throws -> [ProfileView.LinkedIdentity] {
        try await tx.identities(userID: sub)
            .sorted { ($0.linkedAt, $0.provider) < ($1.linkedAt, $1.provider) }
            .map { ProfileView.LinkedIdentity(provider: $0.provider, linkedAt: $0.linkedAt) }
    }
}

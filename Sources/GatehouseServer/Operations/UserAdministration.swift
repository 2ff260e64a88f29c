import Foundation
import GatehouseCore
import GatehouseStore
import Logging

/// `gatehouse users superuser`: operator flags on the app's user record, outside the server. The flag
/// is what the seed 003 API shows as `User.is_superuser`; no request can set it.
public enum UserAdministration {
    /// Sets or clears `is_superuser` on one user's profile.
    /// - Parameters:
    ///   - user: The user's `sub`, or the email address on their profile (compared without case).
    ///   - on: The new value.
    ///   - configuration: Where the database is.
    ///   - logger: For the store's lines.
    /// - Returns: What was done, for the operator.
    /// - Throws: ``ConfigurationError`` when no profile or several match (profiles are created on a
    ///   user's first authenticated call, so a user who never called the API has none yet).
    public static func setSuperuser(_ user: String, on: Bool, configuration: GatehouseConfiguration, logger: Logger) async throws -> String {
        let location = try StoreLocation(url: configuration.resolvedDatabaseURL)
        return try await location.withStore(logger: logger) { store in
            guard try await store.pendingMigrations().isEmpty else {
                throw ConfigurationError("The database has pending migrations: run `gatehouse migrate` (or start the server) first.")
            }
            let now = Date()
            let profile: ProfileRecord = try await store.write { tx in
                var matches = try await tx.profile(sub: user).map { [$0] } ?? []
                if matches.isEmpty, user.contains("@") { matches = try await tx.profiles(email: user) }
                guard matches.count == 1, var profile = matches.first else {
                    throw ConfigurationError(
                        matches.isEmpty
                            ? "No profile for \(user.prefix(256)): profiles are created on the user's first API call (GET /me)."
                            : "\(matches.count) profiles have that email (\(matches.map(\.sub).joined(separator: ", "))): give the sub."
                    )
                }
                profile.isSuperuser = on
                profile.updatedAt = now
                try await tx.updateProfile(profile)
                return profile
            }
            var line = "\(profile.sub) is \(on ? "now" : "no longer") a superuser."
            do {
                try await store.announce([.profileChanged(sub: profile.sub)])
                line += store.backendName == "postgres" ? " Running servers were told." : " A running server shows it within its cache time."
            } catch {
                line += " Running servers could not be told (\(error)); they show it within their cache time."
            }
            return line
        }
    }
}

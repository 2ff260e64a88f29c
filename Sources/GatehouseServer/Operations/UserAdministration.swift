import Foundation
import GatehouseCore
import GatehouseStore
import Logging

/// `gatehouse users superuser`: operator flags on the app's user record, outside the server. The flag
/// is what the seed 003 API shows as `User.is_superuser`; no request can set it.
public enum UserAdministration {
    /// Sets or clears `is_superuser` on one user's profile.
    /// - Parameters:
    ///   - user: The user's `sub`, or an email address (compared without case) that exactly one profile
    ///     holds as verified; a profile that shows it unverified never matches.
    ///   - on: The new value.
    ///   - configuration: Where the database is.
    ///   - logger: For the store's lines.
    /// - Returns: What was done, for the operator.
    /// - Throws: ``ConfigurationError`` when no profile or several match, listing the candidates with
    ///   their verification state (profiles are created on a user's first authenticated call, so a user
    ///   who never called the API has none yet).
    public static func setSuperuser(_ user: String, on: Bool, configuration: GatehouseConfiguration, logger: Logger) async throws -> String {
        let location = try StoreLocation(url: configuration.resolvedDatabaseURL)
        return try await location.withStore(logger: logger) { store in
            guard try await store.pendingMigrations().isEmpty else {
                throw ConfigurationError("The database has pending migrations: run `gatehouse migrate` (or start the server) first.")
            }
            let now = Date()
            let (profile, how): (ProfileRecord, String) = try await store.write { tx in
                var (matches, how) = (try await tx.profile(sub: user).map { [$0] } ?? [], "by sub")
                if matches.isEmpty, user.contains("@") {
                    // An address is only as good as its proof: a profile that shows it unverified (a
                    // Google account reporting it with email_verified false, an unconfirmed sign-up)
                    // never matches, so nobody becomes a superuser by claiming the operator's address.
                    let candidates = try await tx.profiles(email: user)
                    (matches, how) = (candidates.filter(\.emailVerified), "by verified address")
                    guard matches.count == 1 else {
                        throw ConfigurationError(Self.noMatch(user, candidates: candidates, verified: matches.count))
                    }
                }
                guard matches.count == 1, var profile = matches.first else {
                    throw ConfigurationError(Self.noMatch(user, candidates: [], verified: 0))
                }
                profile.isSuperuser = on
                profile.updatedAt = now
                try await tx.updateProfile(profile)
                return (profile, how)
            }
            var line = "\(profile.sub) (found \(how)) is \(on ? "now" : "no longer") a superuser."
            do {
                try await store.announce([.profileChanged(sub: profile.sub)])
                line += store.backendName == "postgres" ? " Running servers were told." : " A running server shows it within its cache time."
            } catch {
                line += " Running servers could not be told (\(error)); they show it within their cache time."
            }
            return line
        }
    }

    /// Why nothing was changed, with the candidates and their verification state when the address
    /// matched several profiles or only unverified ones.
    static func noMatch(_ user: String, candidates: [ProfileRecord], verified: Int) -> String {
        let shown = String(user.prefix(256))
        if candidates.isEmpty {
            return "No profile for \(shown): profiles are created on the user's first API call (GET /me)."
        }
        let list = candidates.map { "\($0.sub) (\($0.emailVerified ? "verified" : "unverified"))" }.joined(separator: ", ")
        if verified == 0 {
            return "No profile holds \(shown) as a verified address; only an unverified one shows it: \(list). "
                + "An unverified address proves nothing: give the sub if you are sure."
        }
        return "\(verified) profiles hold \(shown) as a verified address: \(list). Give the sub."
    }
}

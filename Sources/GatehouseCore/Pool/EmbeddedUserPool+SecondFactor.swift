import Foundation
import GatehouseInfrastructure
import Logging

extension EmbeddedUserPool: SecondFactorStrategy {
    /// The user a second factor completed the sign-in of, for a session whose method is the first
    /// factor's with `+otp`.
    public func subject(afterSecondFactor userID: String, firstFactor: String) async throws -> VerifiedSubject {
        guard let user = try await store.read({ try await $0.user(id: userID) }), user.confirmed else {
            throw GatehouseError(.invalidCredentials, "Sign in again.", cause: "the challenge's user is gone or unconfirmed")
        }
        return VerifiedSubject(user: user, method: firstFactor + "+otp")
    }

    /// The pool user (for enrolment's label).
    public func secondFactorUser(id: String) async throws -> UserRecord? {
        try await store.read { try await $0.user(id: id) }
    }
}

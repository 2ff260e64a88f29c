import Foundation
import Logging

extension EmbeddedUserPool: PasskeyStrategy {
    /// The pool user with this id (``PasskeyStrategy``).
    public func passkeyUser(id: String) async throws -> UserRecord? {
        try await store.read { try await $0.user(id: id) }
    }

    /// The pool user holding this address (``PasskeyStrategy``).
    public func passkeyUser(email: EmailAddress) async throws -> UserRecord? {
        try await store.read { try await $0.user(emailKey: email.key) }
    }

    /// The confirmed pool user a verified passkey proves (``PasskeyStrategy``), for a `passkey` session.
    public func passkeySubject(userID: String) async throws -> VerifiedSubject {
        guard let user = try await store.read({ try await $0.user(id: userID) }), user.confirmed else {
            throw GatehouseError(.invalidCredentials, "The passkey could not be verified.", cause: "the passkey's user is gone or unconfirmed")
        }
        return VerifiedSubject(user: user, method: "passkey")
    }
}

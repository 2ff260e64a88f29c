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

    /// A `passkey` session for a confirmed pool user (``PasskeyStrategy``).
    public func startPasskeySession(userID: String, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        guard let user = try await store.read({ try await $0.user(id: userID) }), user.confirmed else {
            throw GatehouseError(.invalidCredentials, "The passkey could not be verified.", cause: "the passkey's user is gone or unconfirmed")
        }
        let tokens = try await startSession(for: user, method: "passkey", client: client, nonce: nil, isNewUser: nil)
        logger.info("signed in", metadata: ["user.sub": .string(user.id), "auth.method": "passkey"])
        return tokens
    }
}

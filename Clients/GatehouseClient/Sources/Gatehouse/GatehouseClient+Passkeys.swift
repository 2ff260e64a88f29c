import Foundation

/// Passkeys (WebAuthn discoverable credentials, when the server has `GATEHOUSE_PASSKEY_RP_ID`): registering one for the
/// signed-in user, listing and removing them, and signing in with one.
///
/// The calls here are the platform-neutral half: options in, the authenticator's raw answer out. On iOS, macOS and
/// visionOS, ``PasskeyAuthorization`` runs the system sheet between the two; elsewhere hand
/// ``PasskeyRegistrationOptions/json`` to your authenticator and build ``PasskeyRegistration`` or ``PasskeyAssertion``
/// from its answer. A passkey is both factors at once: signing in with one never asks for an authenticator app's code.
extension GatehouseClient {
    private struct PasskeysEnvelope: Decodable { var passkeys: [Passkey] }

    // MARK: Registration (signed in)

    /// The options for creating a passkey for the signed-in user (a fresh challenge, the RP id, the user handle, the
    /// passkeys the account already has).
    ///
    /// - Returns: The decoded options, with the server's JSON.
    /// - Throws: ``GatehouseError``: `notFound` or `providerDisabled` (passkeys are off on this server), `notSignedIn`,
    ///   `invalidGrant`, `invalidResponse` (options without a field the ceremony needs), or a transport failure.
    public func passkeyRegistrationOptions() async throws -> PasskeyRegistrationOptions {
        try PasskeyRegistrationOptions(json: try await authorized("POST", "/me/passkeys/options", body: nil))
    }

    /// Registers the passkey an authenticator created from ``passkeyRegistrationOptions()``.
    ///
    /// - Parameters:
    ///   - registration: The authenticator's answer.
    ///   - name: A name to list it by (at most 256 characters); the server says "Passkey" when `nil`.
    /// - Returns: The new passkey.
    /// - Throws: ``GatehouseError``: `invalidCredentials` (the answer did not verify: another origin or RP id, an
    ///   expired or used challenge, no user verification), `conflict` (the credential is registered already),
    ///   `invalidRequest` (a malformed answer or name; show the message), `notSignedIn`, `invalidGrant`, or a
    ///   transport failure.
    @discardableResult
    public func registerPasskey(_ registration: PasskeyRegistration, name: String? = nil) async throws -> Passkey {
        var body = registration.responseJSON
        if let name { body["name"] = name }
        return try decode(Passkey.self, try await authorized("POST", "/me/passkeys", rawBody: try JSONSerialization.data(withJSONObject: body)))
    }

    /// The signed-in user's passkeys, oldest first.
    ///
    /// - Returns: The passkeys.
    /// - Throws: ``GatehouseError``: `notSignedIn`, `invalidGrant`, or a transport failure.
    public func passkeys() async throws -> [Passkey] {
        try decode(PasskeysEnvelope.self, try await authorized("GET", "/me/passkeys", body: nil)).passkeys
    }

    /// Removes one of the signed-in user's passkeys; it can no longer sign in (remove it from the device's password
    /// manager too).
    ///
    /// - Parameter id: The passkey's ``Passkey/id``.
    /// - Throws: ``GatehouseError``: `notFound` (no passkey of this user has that id), `notSignedIn`, `invalidGrant`,
    ///   or a transport failure.
    public func deletePasskey(id: String) async throws {
        // Ids are base64url; anything else names no passkey, and must never become a path of its own (`..`).
        guard !id.isEmpty, Base64URL.decode(id) != nil, !id.contains("=") else {
            throw GatehouseError.server(ServerError(code: .notFound, message: "No such passkey.", status: 404))
        }
        _ = try await authorized("DELETE", "/me/passkeys/\(id)", body: nil)
    }

    // MARK: Signing in

    /// The options for signing in with a passkey.
    ///
    /// - Parameter email: The address the user typed, to limit the choice to that account's passkeys; `nil` (the
    ///   usual "Sign in with a passkey" button) lets the authenticator offer every passkey it holds for the domain.
    ///   The answer never says whether the address has an account.
    /// - Returns: The decoded options, with the server's JSON.
    /// - Throws: ``GatehouseError``: `notFound` or `providerDisabled` (passkeys are off on this server), `invalidRequest` (a malformed address),
    ///   `invalidResponse`, or a transport failure.
    public func passkeySignInOptions(email: String? = nil) async throws -> PasskeySignInOptions {
        try PasskeySignInOptions(json: try await call("POST", "/auth/passkey/options", body: email.map { ["email": $0] } ?? [:]))
    }

    /// Signs in with the assertion an authenticator made from ``passkeySignInOptions(email:)``, stores the session
    /// (``SignInMethod/passkey``) and emits ``AuthEvent/signedIn``, as every other sign-in does. It never answers
    /// ``ErrorCode/mfaRequired``.
    ///
    /// - Parameter assertion: The authenticator's answer.
    /// - Returns: The stored session.
    /// - Throws: ``GatehouseError``: `invalidCredentials` (the passkey is unknown, removed or blocked, or the answer
    ///   did not verify), `invalidRequest` (a malformed answer), `notFound` or `providerDisabled` (passkeys are off),
    ///   `tooManyRequests`, or a
    ///   transport failure.
    @discardableResult
    public func signInWithPasskey(_ assertion: PasskeyAssertion) async throws -> SignInResult {
        let body = try JSONSerialization.data(withJSONObject: assertion.responseJSON)
        return try await begin(try await call("POST", "/auth/passkey/signin", rawBody: body), .passkey)
    }
}

import Foundation

/// The signed-in user's sessions on every device, and changing the account's email address.
///
/// ```swift
/// for session in try await gatehouse.sessions() where !session.current {
///     print(session.device, session.lastActiveAt)   // "Chrome on macOS", …
/// }
/// try await gatehouse.endSession(id: lost.id)          // that device is signed out at once
///
/// try await gatehouse.changeEmail(to: "new@example.com", currentPassword: password)
/// let profile = try await gatehouse.verifyEmailChange(code: codeFromTheNewMailbox)
/// ```
extension GatehouseClient {
    private struct SessionsEnvelope: Decodable { var sessions: [DeviceSession] }

    // MARK: Sessions

    /// The user's live sessions on every device, most recently used first; this client's own is marked
    /// ``DeviceSession/current``.
    ///
    /// - Returns: The sessions.
    /// - Throws: ``GatehouseError``: `notSupported` (the server runs on Amazon Cognito, which keeps no such list),
    ///   `notSignedIn`, `invalidGrant` (the session ended), or a transport failure.
    public func sessions() async throws -> [DeviceSession] {
        try decode(SessionsEnvelope.self, try await authorized("GET", "/me/sessions", body: nil)).sessions
    }

    /// Signs one device out: its access and refresh tokens stop working at once, on every server instance.
    /// Ending this client's own session is signing out: the local session is cleared too and
    /// ``AuthEvent/signedOut`` emitted.
    ///
    /// - Parameter id: The ``DeviceSession/id`` from ``sessions()``.
    /// - Throws: ``GatehouseError``: `notFound` (no such session of this user, or it has ended already),
    ///   `notSupported`, `notSignedIn`, `invalidGrant`, or a transport failure.
    public func endSession(id: String) async throws {
        // Session ids are UUIDs: anything else is no session of this user, and never reaches the path.
        guard !id.isEmpty, id.unicodeScalars.allSatisfy({ $0.isASCII && (CharacterSet.alphanumerics.contains($0) || $0 == "-") }) else {
            throw GatehouseError.server(ServerError(code: .notFound, message: "No such session.", status: 404))
        }
        let own = try loadedSession().flatMap { JWTClaims.decode($0.accessToken)?["origin_jti"] as? String } == id
        _ = try await authorized("DELETE", "/me/sessions/\(id)", body: nil)
        if own, let failure = await exclusively({ await self.end(.signedOut) }) { throw GatehouseError.storage(failure) }
    }

    // MARK: Email address

    /// Starts moving the account to a new email address: the server mails a code there, which
    /// ``verifyEmailChange(code:)`` redeems. Until then the account keeps its address (and signs in with it).
    ///
    /// The answer is the same whether or not the address belongs to another account (whose owner is sent a notice
    /// instead, and no code), so follow it with the code screen in every case.
    ///
    /// - Parameters:
    ///   - email: The new address.
    ///   - currentPassword: The account's password: required when it has one. An account without one (Apple, Google or
    ///     phone only) must have signed in within the last 15 minutes instead; pass `nil`.
    /// - Returns: Where the code went (masked).
    /// - Throws: ``GatehouseError``: `reauthenticationRequired` (send the password, or sign in again),
    ///   `invalidCredentials` (a wrong password), `invalidRequest` (not an address, or the account's own),
    ///   `tooManyRequests`, `notSupported`, `notSignedIn`, or a transport failure.
    @discardableResult
    public func changeEmail(to email: String, currentPassword: String?) async throws -> CodeDelivery {
        var body = ["email": email]
        if let currentPassword { body["current_password"] = currentPassword }
        return try decode(DeliveryEnvelope.self, try await authorized("POST", "/me/email", body: body)).codeDelivery
    }

    /// Redeems the code mailed by ``changeEmail(to:currentPassword:)``: the new address becomes the account's,
    /// verified, and the old one is sent a notice. The ID token carries it from the session's next refresh; call
    /// ``refresh()`` to have ``currentUser`` show it at once.
    ///
    /// - Parameter code: The 6-digit code from the new mailbox.
    /// - Returns: The updated profile.
    /// - Throws: ``GatehouseError``: `codeMismatch`, `codeExpired` (start again), `conflict` (another account took the
    ///   address meanwhile), `tooManyRequests`, `notSupported`, `notSignedIn`, or a transport failure.
    public func verifyEmailChange(code: String) async throws -> Profile {
        try decode(Profile.self, try await authorized("POST", "/me/email/verify", body: ["code": code]))
    }
}

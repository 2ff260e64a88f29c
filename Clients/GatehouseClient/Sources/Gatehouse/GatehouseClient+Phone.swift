import Foundation

/// Phone numbers: signing in with a texted code, and adding a number to the signed-in account.
///
/// Numbers go to the server as they are given, in international form (`+14155550123`); the server keeps them in E.164
/// and refuses national numbers, numbers in countries it does not text and premium-rate ranges with `invalid_request`
/// and a message that says which.
extension GatehouseClient {
    // MARK: Phone

    /// Texts a sign-in code to `phone`. A number never seen before gets a code too: signing in with it creates the
    /// account (``SignInResult/isNewUser`` says so).
    ///
    /// The answer is the same whether or not the number has an account, so follow it with the code screen in every case.
    ///
    /// - Parameter phone: The number in E.164, such as `+14155550123`.
    /// - Returns: Where the code went (medium `SMS`, the number masked: `+14…23`).
    /// - Throws: ``GatehouseError``: `invalidRequest` (a malformed number, a country the server does not text, or a
    ///   premium-rate number; show the message), `providerDisabled` (phone sign-in is off on this server),
    ///   `tooManyRequests` (wait ``ServerError/retryAfter`` seconds), or a transport failure.
    @discardableResult
    public func sendPhoneCode(to phone: String) async throws -> CodeDelivery {
        try decode(DeliveryEnvelope.self, try await call("POST", "/auth/phone/send", body: ["phone": phone])).codeDelivery
    }

    /// Signs in with the code texted by ``sendPhoneCode(to:)``, stores the session and emits
    /// ``AuthEvent/signedIn``, as every other sign-in does.
    ///
    /// - Parameters:
    ///   - phone: The number the code went to, as it was given to ``sendPhoneCode(to:)``.
    ///   - code: The 6-digit code from the text.
    /// - Returns: The stored session and whether the account was just created (the number's first sign-in).
    /// - Throws: ``GatehouseError``: `codeMismatch` (a wrong code), `codeExpired` (ask for a new one with
    ///   ``sendPhoneCode(to:)``), `mfaRequired` (the account has an authenticator app: finish with
    ///   ``completeSecondFactor(mfaToken:code:)``), `invalidRequest`, `providerDisabled`, `tooManyRequests`, or a
    ///   transport failure.
    @discardableResult
    public func signInWithPhone(_ phone: String, code: String) async throws -> SignInResult {
        try await signingIn(.phone, "/auth/phone/verify", body: ["phone": phone, "code": code])
    }

    /// Starts adding `phone` to the signed-in account: the server texts it a code, which ``verifyPhone(_:code:)``
    /// then proves. Until then the account's number is unchanged.
    ///
    /// - Parameter phone: The number in E.164, such as `+14155550123`.
    /// - Returns: Where the code went (masked).
    /// - Throws: ``GatehouseError``: `invalidRequest` (show the message), `providerDisabled`, `tooManyRequests`,
    ///   `notSignedIn`, `invalidGrant` (the session ended), or a transport failure.
    @discardableResult
    public func addPhone(_ phone: String) async throws -> CodeDelivery {
        try decode(DeliveryEnvelope.self, try await authorized("POST", "/me/phone", body: ["phone": phone])).codeDelivery
    }

    /// Proves the number given to ``addPhone(_:)`` with the texted code; it becomes the account's number, verified,
    /// and can sign in from then on.
    ///
    /// The ID token carries the number (``User/phone``) from the session's next refresh; call ``refresh()`` to
    /// have ``currentUser`` show it at once.
    ///
    /// - Parameters:
    ///   - phone: The number the code went to.
    ///   - code: The 6-digit code from the text.
    /// - Returns: The updated profile (``Profile/phone`` and ``Profile/phoneVerified`` set).
    /// - Throws: ``GatehouseError``: `codeMismatch`, `codeExpired`, `conflict` (the number belongs to another account;
    ///   show the message), `tooManyRequests`, `notSignedIn`, `invalidGrant`, or a transport failure.
    public func verifyPhone(_ phone: String, code: String) async throws -> Profile {
        try decode(Profile.self, try await authorized("POST", "/me/phone/verify", body: ["phone": phone, "code": code]))
    }
}

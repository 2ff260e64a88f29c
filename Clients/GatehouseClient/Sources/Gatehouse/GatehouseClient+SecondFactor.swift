import Foundation

/// A second factor: an authenticator app (TOTP, 6 digits, 30-second steps) with recovery codes.
///
/// Once a user has confirmed an app, every sign-in but a passkey answers ``ErrorCode/mfaRequired`` instead of a
/// session: the thrown error's ``GatehouseError/mfaToken`` and the app's code (or a recovery code) go to
/// ``completeSecondFactor(mfaToken:code:)``, which signs in as the first step would have.
///
/// ```swift
/// do {
///     try await gatehouse.signIn(email: email, password: password)
/// } catch let error as GatehouseError where error.code == .mfaRequired {
///     let code = try await askForTheAppsCode()
///     try await gatehouse.completeSecondFactor(mfaToken: error.mfaToken!, code: code)
/// }
/// ```
extension GatehouseClient {
    // MARK: Signing in

    private struct RecoveryCodesEnvelope: Decodable { var recoveryCodes: [String] }

    /// Finishes a sign-in that answered ``ErrorCode/mfaRequired``: stores the session and emits
    /// ``AuthEvent/signedIn``, as the first step would have. The session records the first step's
    /// ``SignInMethod`` when the token is the one this client's last sign-in received.
    ///
    /// - Parameters:
    ///   - mfaToken: The refusal's ``GatehouseError/mfaToken`` (it lives 5 minutes and completes one sign-in).
    ///   - code: The authenticator app's current 6-digit code (each is accepted once), or one of the recovery codes
    ///     (`xxxxx-xxxxx`, each used once).
    /// - Returns: The stored session.
    /// - Throws: ``GatehouseError``: `codeMismatch` (a wrong, reused or replayed code; the token stays good: ask
    ///   again), `invalidGrant` (the token expired or was used: sign in again from the first step),
    ///   `tooManyRequests` (wrong codes count in the account's sign-in throttle), or a transport failure.
    @discardableResult
    public func completeSecondFactor(mfaToken: String, code: String) async throws -> SignInResult {
        let method = pendingSecondFactor?.token == mfaToken ? pendingSecondFactor?.method : nil
        let data = try await call("POST", "/auth/mfa/verify", body: ["mfa_token": mfaToken, "code": code])
        if pendingSecondFactor?.token == mfaToken { pendingSecondFactor = nil }
        return try await begin(data, method)
    }

    /// Sends a first factor and starts the session it answers. An `mfa_required` refusal is rethrown after noting
    /// which method asked for the second step, so ``completeSecondFactor(mfaToken:code:)`` can record it.
    func signingIn(_ method: SignInMethod, _ path: String, body: [String: String]) async throws -> SignInResult {
        let data: Data
        do {
            data = try await call("POST", path, body: body)
        } catch let error as GatehouseError {
            if let token = error.mfaToken { pendingSecondFactor = (token, method) }
            throw error
        }
        return try await begin(data, method)
    }

    // MARK: Enrolment (signed in)

    /// Starts adding an authenticator app: a new secret, to show as a QR code (``AuthenticatorAppEnrolment/otpauthURI``)
    /// or to type in (``AuthenticatorAppEnrolment/secret``). Nothing changes for sign-in until
    /// ``confirmAuthenticatorApp(code:)``; a second call replaces a pending secret.
    ///
    /// - Returns: The secret and its `otpauth://` URI; show them once, never store them.
    /// - Throws: ``GatehouseError``: `conflict` (an app is set up already: remove it first), `providerDisabled`
    ///   (the identity provider manages second factors here), `notSignedIn`, `invalidGrant`, or a transport failure.
    public func enrolAuthenticatorApp() async throws -> AuthenticatorAppEnrolment {
        try decode(AuthenticatorAppEnrolment.self, try await authorized("POST", "/me/mfa/totp", body: nil))
    }

    /// Confirms the app with its first code; from then on every sign-in but a passkey asks for a code.
    ///
    /// - Parameter code: The app's current 6-digit code.
    /// - Returns: Ten single-use recovery codes: show them once and ask the user to keep them (only their hashes
    ///   are kept on the server).
    /// - Throws: ``GatehouseError``: `codeMismatch` (a wrong code), `notFound` (no pending app: start again with
    ///   ``enrolAuthenticatorApp()``), `tooManyRequests`, `notSignedIn`, `invalidGrant`, or a transport failure.
    public func confirmAuthenticatorApp(code: String) async throws -> [String] {
        try decode(RecoveryCodesEnvelope.self, try await authorized("POST", "/me/mfa/totp/verify", body: ["code": code])).recoveryCodes
    }

    /// Ten new recovery codes; the old ones stop working.
    ///
    /// - Parameter code: The app's current 6-digit code (each code is accepted once).
    /// - Returns: The new codes, to show once.
    /// - Throws: ``GatehouseError``: `codeMismatch`, `notFound` (no app is set up), `tooManyRequests`,
    ///   `notSignedIn`, `invalidGrant`, or a transport failure.
    public func regenerateRecoveryCodes(code: String) async throws -> [String] {
        try decode(RecoveryCodesEnvelope.self, try await authorized("POST", "/me/mfa/recovery-codes", body: ["code": code])).recoveryCodes
    }

    /// Removes the authenticator app and its recovery codes; sign-ins no longer ask for a code.
    ///
    /// - Parameter code: The app's current 6-digit code.
    /// - Throws: ``GatehouseError``: `codeMismatch`, `notFound` (no app is set up), `tooManyRequests`,
    ///   `notSignedIn`, `invalidGrant`, or a transport failure.
    public func removeAuthenticatorApp(code: String) async throws {
        _ = try await authorized("DELETE", "/me/mfa/totp", body: ["code": code])
    }
}

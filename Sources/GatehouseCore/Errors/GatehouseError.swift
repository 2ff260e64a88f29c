import Foundation

/// The one error type the core throws across its boundary.
///
/// Domain refusals only: HTTP's own (unknown path, wrong method, body too large, wrong media type)
/// are the server's `TransportError`.
///
/// The code is a struct over a private enum (as async-http-client's `HTTPClientError` does), so new
/// codes can be added without breaking callers that switch on known ones. `message` is safe to show
/// to a client; `cause` is for the log only and never leaves the process.
public struct GatehouseError: Error, Sendable, CustomStringConvertible {
    /// A stable machine-readable error code; its ``rawValue`` is the `error` field of every error body.
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable, CaseIterable {
            case invalidRequest = "invalid_request"
            case invalidPassword = "invalid_password"
            case codeMismatch = "code_mismatch"
            case codeExpired = "code_expired"
            case invalidCredentials = "invalid_credentials"
            case invalidToken = "invalid_token"
            case invalidGrant = "invalid_grant"
            case invalidSession = "invalid_session"
            case unauthorized = "unauthorized"
            case userNotConfirmed = "user_not_confirmed"
            case forbidden = "forbidden"
            case reauthenticationRequired = "reauthentication_required"
            case mfaRequired = "mfa_required"
            case userDisabled = "user_disabled"
            case notFound = "not_found"
            case conflict = "conflict"
            case tooManyRequests = "too_many_requests"
            case providerDisabled = "provider_disabled"
            case notSupported = "not_supported"
            case internalError = "internal_error"
            case upstreamUnavailable = "upstream_unavailable"
            case unavailable = "unavailable"
        }

        fileprivate let base: Base
        fileprivate init(_ base: Base) { self.base = base }

        /// Every code there is (for tests that hold a document's list of codes to the core's).
        package static var all: [Code] { Base.allCases.map(Code.init) }

        /// The stable wire code, e.g. `invalid_request`.
        public var rawValue: String { base.rawValue }
        /// The wire code, so a code interpolates into logs as clients see it.
        public var description: String { base.rawValue }

        /// 400: malformed JSON, a missing or ill-typed field, bad email syntax, an over-long or control-character value.
        public static let invalidRequest = Code(.invalidRequest)
        /// 400: a new password that fails ``PasswordPolicy``; the message names the rule.
        public static let invalidPassword = Code(.invalidPassword)
        /// 400: a confirmation or reset code that is wrong (the try is spent).
        public static let codeMismatch = Code(.codeMismatch)
        /// 400: a code past its lifetime, out of tries, or never issued.
        public static let codeExpired = Code(.codeExpired)
        /// 401: email/password sign-in failed; one body for an unknown user and a wrong password (no enumeration).
        public static let invalidCredentials = Code(.invalidCredentials)
        /// 401: a provider (Google, Apple) ID token that fails verification.
        public static let invalidToken = Code(.invalidToken)
        /// 401: a refresh token that is unknown, expired, revoked or reused.
        public static let invalidGrant = Code(.invalidGrant)
        /// 401: a sign-in step's session (Cognito's `SELECT_CHALLENGE` `Session`) that is forged, expired,
        /// used already, or for another user or app client. Only the Cognito API answers it.
        public static let invalidSession = Code(.invalidSession)
        /// 401: a missing or bad bearer token on a protected endpoint; one body whatever the reason.
        public static let unauthorized = Code(.unauthorized)
        /// 403: the email is not confirmed yet; only ever sent after the password was verified.
        public static let userNotConfirmed = Code(.userNotConfirmed)
        /// 403: the request is understood but refused (a provider identity without a verified email Cognito can use).
        public static let forbidden = Code(.forbidden)
        /// 403: a sensitive action (deleting the account, changing its phone number) needs a sign-in at
        /// least as strong as the strongest way into the account, or its current password.
        public static let reauthenticationRequired = Code(.reauthenticationRequired)
        /// 403: the first factor was right, and the account has a second one: redeem ``GatehouseError/mfaToken``
        /// with a code at `POST /auth/mfa/verify`.
        public static let mfaRequired = Code(.mfaRequired)
        /// 403: an operator disabled the account; every sign-in path refuses it (only after the first factor
        /// was right, so the answer tells an attacker nothing) until it is enabled again.
        public static let userDisabled = Code(.userDisabled)
        /// 404: the resource does not exist (or no longer does).
        public static let notFound = Code(.notFound)
        /// 409: the change collides with existing state (a provider sign-in for an email a password account owns).
        public static let conflict = Code(.conflict)
        /// 429: a rate limit refused the request; ``GatehouseError/retryAfter`` says for how long.
        public static let tooManyRequests = Code(.tooManyRequests)
        /// A social provider that this deployment has not configured (no audience): sign-in with it is off.
        public static let providerDisabled = Code(.providerDisabled)
        /// 501: the identity provider behind this deployment cannot do this (a user's session list on Amazon Cognito).
        public static let notSupported = Code(.notSupported)
        /// 500: opaque to the client; the cause goes to the log with the request id.
        public static let internalError = Code(.internalError)
        /// 503: Cognito, Apple or Google is unreachable (the client may retry; `Retry-After` when known).
        public static let upstreamUnavailable = Code(.upstreamUnavailable)
        /// 503: Gatehouse's own storage is unreachable.
        public static let unavailable = Code(.unavailable)
    }

    /// What went wrong, as clients match on it; decides the HTTP status.
    public let code: Code
    /// Safe, human-readable text. Never contains secrets, tokens, codes, passwords or internal causes.
    public let message: String
    /// Seconds a client should wait (429 only).
    public let retryAfter: Int?
    /// Internal detail for the log; never sent to a client.
    public let cause: String?
    /// The sealed second-step challenge of an `mfa_required` refusal; sent to the client.
    public let mfaToken: String?

    /// An error with an explicit code and client-facing message; prefer the named factories below.
    /// - Parameters:
    ///   - code: The wire code.
    ///   - message: Text safe to show a client: no secrets, tokens, codes, passwords or internal causes.
    ///   - retryAfter: Seconds a client should wait; set for `too_many_requests` only.
    ///   - cause: Internal detail for the log; never sent to a client.
    ///   - mfaToken: The second-step challenge of an `mfa_required` refusal.
    public init(_ code: Code, _ message: String, retryAfter: Int? = nil, cause: String? = nil, mfaToken: String? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.cause = cause
        self.mfaToken = mfaToken
    }

    /// Code, message and cause, for logs only: it contains ``cause``, so it must never reach a client.
    public var description: String {
        "GatehouseError(\(code.rawValue): \(message)\(cause.map { " — \($0)" } ?? ""))"
    }
}

extension GatehouseError {
    /// The first factor was right and the account has a second one (403 `mfa_required`, with the challenge).
    /// - Parameter token: The sealed challenge for `POST /auth/mfa/verify`.
    /// - Returns: The error.
    public static func mfaRequired(token: String) -> GatehouseError {
        .init(.mfaRequired, "Enter the code from your authenticator app (or a recovery code) to finish signing in.", mfaToken: token)
    }

    /// A malformed request (400).
    /// - Parameter message: Which field is wrong and how, safe to show the client (never echo a secret).
    /// - Returns: An `invalid_request` error.
    public static func invalidRequest(_ message: String) -> GatehouseError { .init(.invalidRequest, message) }

    /// Wrong email or password (401), one message for both so the answer does not reveal whether the account exists.
    public static var invalidCredentials: GatehouseError {
        .init(.invalidCredentials, "Incorrect email or password.")
    }

    /// No valid access token (401), with the one message every reason shares.
    public static var unauthorized: GatehouseError {
        .init(.unauthorized, "A valid access token is required.")
    }

    /// No valid access token (401), the same body as ``unauthorized``, with the reason kept for the log.
    /// - Parameter cause: Why the token was refused (expired, bad signature, ended session); log only.
    /// - Returns: An `unauthorized` error.
    public static func unauthorized(cause: String) -> GatehouseError {
        .init(.unauthorized, "A valid access token is required.", cause: cause)
    }

    /// The refresh token is unknown, expired, revoked or reused (401): the client must sign in again.
    public static var invalidGrant: GatehouseError {
        .init(.invalidGrant, "The refresh token is invalid, expired or revoked. Sign in again.")
    }

    /// A provider ID token that failed verification (401).
    /// - Parameter cause: Which check failed (signature, audience, expiry, nonce); log only.
    /// - Returns: An `invalid_token` error.
    public static func invalidToken(cause: String) -> GatehouseError {
        .init(.invalidToken, "The identity token could not be verified.", cause: cause)
    }

    /// A wrong confirmation or reset code (400).
    public static var codeMismatch: GatehouseError {
        .init(.codeMismatch, "The code is not correct.")
    }

    /// A code that expired, ran out of tries or was never issued (400): the user must request a new one.
    public static var codeExpired: GatehouseError {
        .init(.codeExpired, "The code has expired or was used up. Request a new one.")
    }

    /// The account's email is unconfirmed (403); thrown only after the password checked out.
    public static var userNotConfirmed: GatehouseError {
        .init(.userNotConfirmed, "Confirm your email address before signing in. We sent you a code.")
    }

    /// A rate-limit refusal (429).
    /// - Parameter retryAfter: Seconds until the client may try again; raised to at least 1.
    /// - Returns: A `too_many_requests` error carrying the Retry-After value.
    public static func tooManyRequests(retryAfter: Int) -> GatehouseError {
        .init(.tooManyRequests, "Too many attempts. Try again later.", retryAfter: max(1, retryAfter))
    }

    /// A failure on Gatehouse's side (500) with an opaque message.
    /// - Parameter cause: What actually failed; log only.
    /// - Returns: An `internal_error` error.
    public static func internalError(cause: String) -> GatehouseError {
        .init(.internalError, "Something went wrong on our side.", cause: cause)
    }

    /// Gatehouse's storage is unreachable (503).
    /// - Parameter cause: The storage error; log only.
    /// - Returns: An `unavailable` error.
    public static func unavailable(cause: String) -> GatehouseError {
        .init(.unavailable, "The service is temporarily unavailable.", cause: cause)
    }

    /// An upstream identity service (Cognito, Apple, Google) is unreachable (503).
    /// - Parameter cause: The transport or upstream error; log only.
    /// - Returns: An `upstream_unavailable` error.
    public static func upstreamUnavailable(cause: String) -> GatehouseError {
        .init(.upstreamUnavailable, "An upstream identity service is unreachable. Try again shortly.", cause: cause)
    }
}

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
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        fileprivate enum Base: String, Sendable {
            case invalidRequest = "invalid_request"
            case invalidPassword = "invalid_password"
            case codeMismatch = "code_mismatch"
            case codeExpired = "code_expired"
            case invalidCredentials = "invalid_credentials"
            case invalidToken = "invalid_token"
            case invalidGrant = "invalid_grant"
            case unauthorized = "unauthorized"
            case userNotConfirmed = "user_not_confirmed"
            case forbidden = "forbidden"
            case notFound = "not_found"
            case conflict = "conflict"
            case tooManyRequests = "too_many_requests"
            case providerDisabled = "provider_disabled"
            case internalError = "internal_error"
            case upstreamUnavailable = "upstream_unavailable"
            case unavailable = "unavailable"
        }

        fileprivate let base: Base
        fileprivate init(_ base: Base) { self.base = base }

        /// The stable wire code, e.g. `invalid_request`.
        public var rawValue: String { base.rawValue }
        public var description: String { base.rawValue }

        public static let invalidRequest = Code(.invalidRequest)
        public static let invalidPassword = Code(.invalidPassword)
        public static let codeMismatch = Code(.codeMismatch)
        public static let codeExpired = Code(.codeExpired)
        public static let invalidCredentials = Code(.invalidCredentials)
        public static let invalidToken = Code(.invalidToken)
        public static let invalidGrant = Code(.invalidGrant)
        public static let unauthorized = Code(.unauthorized)
        public static let userNotConfirmed = Code(.userNotConfirmed)
        public static let forbidden = Code(.forbidden)
        public static let notFound = Code(.notFound)
        public static let conflict = Code(.conflict)
        public static let tooManyRequests = Code(.tooManyRequests)
        /// A social provider that this deployment has not configured (no audience): sign-in with it is off.
        public static let providerDisabled = Code(.providerDisabled)
        public static let internalError = Code(.internalError)
        public static let upstreamUnavailable = Code(.upstreamUnavailable)
        public static let unavailable = Code(.unavailable)
    }

    public let code: Code
    /// Safe, human-readable text. Never contains secrets, tokens, codes, passwords or internal causes.
    public let message: String
    /// Seconds a client should wait (429 only).
    public let retryAfter: Int?
    /// Internal detail for the log; never sent to a client.
    public let cause: String?

    public init(_ code: Code, _ message: String, retryAfter: Int? = nil, cause: String? = nil) {
        self.code = code
        self.message = message
        self.retryAfter = retryAfter
        self.cause = cause
    }

    public var description: String {
        "GatehouseError(\(code.rawValue): \(message)\(cause.map { " — \($0)" } ?? ""))"
    }
}

extension GatehouseError {
    public static func invalidRequest(_ message: String) -> GatehouseError { .init(.invalidRequest, message) }

    public static var invalidCredentials: GatehouseError {
        .init(.invalidCredentials, "Incorrect email or password.")
    }

    public static var unauthorized: GatehouseError {
        .init(.unauthorized, "A valid access token is required.")
    }

    public static func unauthorized(cause: String) -> GatehouseError {
        .init(.unauthorized, "A valid access token is required.", cause: cause)
    }

    public static var invalidGrant: GatehouseError {
        .init(.invalidGrant, "The refresh token is invalid, expired or revoked. Sign in again.")
    }

    public static func invalidToken(cause: String) -> GatehouseError {
        .init(.invalidToken, "The identity token could not be verified.", cause: cause)
    }

    public static var codeMismatch: GatehouseError {
        .init(.codeMismatch, "The code is not correct.")
    }

    public static var codeExpired: GatehouseError {
        .init(.codeExpired, "The code has expired or was used up. Request a new one.")
    }

    public static var userNotConfirmed: GatehouseError {
        .init(.userNotConfirmed, "Confirm your email address before signing in. We sent you a code.")
    }

    public static func tooManyRequests(retryAfter: Int) -> GatehouseError {
        .init(.tooManyRequests, "Too many attempts. Try again later.", retryAfter: max(1, retryAfter))
    }

    public static func internalError(cause: String) -> GatehouseError {
        .init(.internalError, "Something went wrong on our side.", cause: cause)
    }

    public static func unavailable(cause: String) -> GatehouseError {
        .init(.unavailable, "The service is temporarily unavailable.", cause: cause)
    }

    public static func upstreamUnavailable(cause: String) -> GatehouseError {
        .init(.upstreamUnavailable, "An upstream identity service is unreachable. Try again shortly.", cause: cause)
    }
}

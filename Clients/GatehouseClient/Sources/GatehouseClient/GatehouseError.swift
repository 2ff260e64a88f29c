import Foundation

/// Everything the SDK throws: the server's answer (with the contract's code), or a failure to
/// reach it (which never ends the session).
///
/// Switch on ``code`` for the contract's codes (``ErrorCode/invalidCredentials``,
/// ``ErrorCode/tooManyRequests`` …), or use ``AuthModel/message(for:)`` for words to show.
public enum GatehouseError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The server answered with an error body.
    case server(ServerError)
    /// The server could not be reached or the connection failed; the session is kept.
    case transport(String)
    /// The answer was not what the contract says.
    case invalidResponse(String)
    /// The call needs a signed-in user and there is none.
    case notSignedIn
    /// The ``TokenStore`` refused; see ``StorageFailure`` for what the client kept.
    case storage(StorageFailure)

    /// The contract's error code, when the server answered.
    public var code: ErrorCode? {
        if case .server(let error) = self { return error.code }
        return nil
    }

    /// A one-line account for logs (code, status and the server's message); not meant for people.
    public var description: String {
        switch self {
        case .server(let error): "\(error.code.rawValue) (HTTP \(error.status)): \(error.message)"
        case .transport(let detail): "The server could not be reached: \(detail)"
        case .invalidResponse(let detail): "Unexpected answer from the server: \(detail)"
        case .notSignedIn: "Not signed in."
        case .storage(let failure): failure.description
        }
    }
}

/// An error body: `{"error": {"code", "message"}}`, plus what the headers said.
public struct ServerError: Sendable, Equatable {
    /// The contract's stable code; decide on this, never on ``message``.
    public var code: ErrorCode
    /// Human-readable text from the server, safe to show.
    public var message: String
    /// The HTTP status (400, 401, 403, 429, 503 …).
    public var status: Int
    /// `X-Request-Id`, for support requests and logs.
    public var requestID: String?
    /// Seconds to wait (429).
    public var retryAfter: Int?
}

/// The contract's error codes; codes this SDK version does not know arrive as `.other`.
///
/// What they mean for an app, in short: `invalidCredentials` — wrong email or password (the same for
/// unknown addresses); `userNotConfirmed` — confirm the emailed code first; `codeMismatch` /
/// `codeExpired` — ask for the code again or a new one; `invalidPassword` — the password fails the
/// policy (show the message); `invalidGrant` — the session is over, sign in again (the client already
/// cleared it); `invalidToken` — Apple's or Google's token did not verify; `tooManyRequests` — wait
/// ``ServerError/retryAfter`` seconds; `upstreamUnavailable` / `unavailable` — nothing changed, retry later.
public enum ErrorCode: Sendable, Equatable, Hashable {
    case invalidRequest, invalidPassword, codeMismatch, codeExpired
    case invalidCredentials, invalidToken, invalidGrant, unauthorized
    case userNotConfirmed, forbidden, notFound, methodNotAllowed, conflict
    case payloadTooLarge, unsupportedMediaType, tooManyRequests, providerDisabled
    case internalError, upstreamUnavailable, unavailable
    /// A code this SDK version does not know, as the server spelled it.
    case other(String)

    static let known: [String: ErrorCode] = [
        "invalid_request": .invalidRequest, "invalid_password": .invalidPassword, "code_mismatch": .codeMismatch,
        "code_expired": .codeExpired, "invalid_credentials": .invalidCredentials, "invalid_token": .invalidToken,
        "invalid_grant": .invalidGrant, "unauthorized": .unauthorized, "user_not_confirmed": .userNotConfirmed,
        "forbidden": .forbidden, "not_found": .notFound, "method_not_allowed": .methodNotAllowed, "conflict": .conflict,
        "payload_too_large": .payloadTooLarge, "unsupported_media_type": .unsupportedMediaType,
        "too_many_requests": .tooManyRequests, "provider_disabled": .providerDisabled, "internal_error": .internalError,
        "upstream_unavailable": .upstreamUnavailable, "unavailable": .unavailable,
    ]

    /// The code for the contract's spelling (`invalid_grant` → ``invalidGrant``); unknown ones become ``other(_:)``.
    ///
    /// - Parameter rawValue: The code as it appears in an error body.
    public init(rawValue: String) {
        self = Self.known[rawValue] ?? .other(rawValue)
    }

    /// The contract's spelling of the code (`invalid_grant`), as it appears in an error body.
    public var rawValue: String {
        if case .other(let raw) = self { return raw }
        return Self.known.first { $0.value == self }?.key ?? "unknown"
    }
}

import Foundation

/// The contract's error codes; codes this SDK version does not know arrive as `.other`.
///
/// What they mean for an app, in short: `invalidCredentials` — wrong email or password (the same for
/// unknown addresses); `userNotConfirmed` — confirm the emailed code first; `codeMismatch` /
/// `codeExpired` — ask for the code again or a new one; `invalidPassword` — the password fails the
/// policy (show the message); `invalidGrant` — the session is over, sign in again (the client already
/// cleared it); `invalidToken` — Apple's or Google's token did not verify; `providerDisabled` — the sign-in
/// method (Apple, Google, phone) is off on this server, hide it; `conflict` — the address or phone number belongs
/// to another account (show the message); `tooManyRequests` — wait ``ServerError/retryAfter`` seconds;
/// `upstreamUnavailable` / `unavailable` — nothing changed, retry later.
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

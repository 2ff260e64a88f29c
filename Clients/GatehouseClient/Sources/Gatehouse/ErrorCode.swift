import Foundation

/// The contract's error code, by its wire spelling (`invalid_grant`). A struct with the known codes as static
/// values, not an enum: a server (or a later SDK version) adds codes, and an app's `switch` over them needs a
/// `default:`, so a new code never breaks its build. `case .invalidGrant:` and `==` work as with an enum.
///
/// ```swift
/// switch error.code {
/// case .invalidCredentials?: showPasswordHint()
/// case .tooManyRequests?: wait()
/// default: show(error.localizedDescription)
/// }
/// ```
///
/// What they mean for an app, in short: `invalidCredentials` — wrong email or password (the same for
/// unknown addresses); `userNotConfirmed` — confirm the emailed code first; `codeMismatch` /
/// `codeExpired` — ask for the code again or a new one; `invalidPassword` — the password fails the
/// policy (show the message); `invalidGrant` — the session is over, sign in again (the client already
/// cleared it); `unauthorized` — the access token was refused even after a refresh (the client ended the
/// session); `invalidToken` — Apple's or Google's token did not verify; `providerDisabled` — the sign-in
/// method (Apple, Google, phone) is off on this server, hide it; `conflict` — the address or phone number belongs
/// to another account (show the message); `reauthenticationRequired` — sign in again (with the account's
/// strongest method) before this action; `mfaRequired` — ask for the authenticator app's code and finish with
/// ``GatehouseClient/completeSecondFactor(mfaToken:code:)``; `tooManyRequests` — wait ``ServerError/retryAfter`` seconds;
/// `upstreamUnavailable` / `unavailable` — nothing changed, retry later; `notSupported` — the server's identity
/// provider cannot do this (hide the feature). Codes this SDK version does not
/// know keep the server's spelling (``isKnown`` is `false`).
public struct ErrorCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The contract's spelling of the code (`invalid_grant`), as it appears in an error body.
    public let rawValue: String

    /// The code for the contract's spelling (`invalid_grant` is ``invalidGrant``); any spelling is kept as it is.
    ///
    /// - Parameter rawValue: The code as it appears in an error body.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A code this SDK version may not know, as the server spelled it (the same as ``init(rawValue:)``; the
    /// spelling of the enum this type was before 1.0).
    ///
    /// - Parameter rawValue: The code as it appears in an error body.
    /// - Returns: The code.
    public static func other(_ rawValue: String) -> ErrorCode { ErrorCode(rawValue: rawValue) }

    /// 400: a malformed request or a refused value (the message names it).
    public static let invalidRequest = ErrorCode(rawValue: "invalid_request")
    /// 400: the new password fails the policy (the message names the rule).
    public static let invalidPassword = ErrorCode(rawValue: "invalid_password")
    /// 400: a wrong confirmation, reset or phone code.
    public static let codeMismatch = ErrorCode(rawValue: "code_mismatch")
    /// 400: a code past its lifetime, out of tries, or never issued.
    public static let codeExpired = ErrorCode(rawValue: "code_expired")
    /// 401: wrong email or password.
    public static let invalidCredentials = ErrorCode(rawValue: "invalid_credentials")
    /// 401: an Apple or Google token that failed verification.
    public static let invalidToken = ErrorCode(rawValue: "invalid_token")
    /// 401: the refresh token is unknown, expired, revoked or reused: the session is over.
    public static let invalidGrant = ErrorCode(rawValue: "invalid_grant")
    /// 401: the access token was refused (after a refresh too, when the client throws it: the session ended).
    public static let unauthorized = ErrorCode(rawValue: "unauthorized")
    /// 403: the address is not confirmed yet.
    public static let userNotConfirmed = ErrorCode(rawValue: "user_not_confirmed")
    /// 403: understood but refused (the message says why).
    public static let forbidden = ErrorCode(rawValue: "forbidden")
    /// 403: a sensitive action needs a recent sign-in with the account's strongest method, or its password.
    public static let reauthenticationRequired = ErrorCode(rawValue: "reauthentication_required")
    /// 403: the first factor was right and the account has an authenticator app: finish with
    /// ``GatehouseClient/completeSecondFactor(mfaToken:code:)`` and the error's ``ServerError/mfaToken``.
    public static let mfaRequired = ErrorCode(rawValue: "mfa_required")
    /// 404: no such resource (or no longer).
    public static let notFound = ErrorCode(rawValue: "not_found")
    /// 405: the path does not take this method.
    public static let methodNotAllowed = ErrorCode(rawValue: "method_not_allowed")
    /// 409: the address or number belongs to another account.
    public static let conflict = ErrorCode(rawValue: "conflict")
    /// 413: the body is too large.
    public static let payloadTooLarge = ErrorCode(rawValue: "payload_too_large")
    /// 415: the body is not JSON.
    public static let unsupportedMediaType = ErrorCode(rawValue: "unsupported_media_type")
    /// 429: throttled; wait ``ServerError/retryAfter`` seconds.
    public static let tooManyRequests = ErrorCode(rawValue: "too_many_requests")
    /// 403: the sign-in method is off on this server.
    public static let providerDisabled = ErrorCode(rawValue: "provider_disabled")
    /// 500: a failure on the server's side.
    public static let internalError = ErrorCode(rawValue: "internal_error")
    /// 503: Cognito, Apple or Google could not be reached.
    public static let upstreamUnavailable = ErrorCode(rawValue: "upstream_unavailable")
    /// 503: the server's storage could not be reached.
    public static let unavailable = ErrorCode(rawValue: "unavailable")
    /// 501: the server's identity provider cannot do this (the session list and email change on Amazon Cognito).
    public static let notSupported = ErrorCode(rawValue: "not_supported")

    /// Every code this SDK version knows.
    static let known: Set<ErrorCode> = [
        .invalidRequest, .invalidPassword, .codeMismatch, .codeExpired, .invalidCredentials, .invalidToken, .invalidGrant,
        .unauthorized, .userNotConfirmed, .forbidden, .reauthenticationRequired, .mfaRequired, .notFound, .methodNotAllowed, .conflict,
        .payloadTooLarge, .unsupportedMediaType, .tooManyRequests, .providerDisabled, .internalError, .upstreamUnavailable,
        .unavailable, .notSupported,
    ]

    /// Whether this SDK version knows the code (one of the static values).
    public var isKnown: Bool { Self.known.contains(self) }

    /// The wire spelling (`invalid_grant`).
    public var description: String { rawValue }
}

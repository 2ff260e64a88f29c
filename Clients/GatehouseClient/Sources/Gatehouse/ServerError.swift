import Foundation

/// An error body: `{"error": {"code", "message"}}` (with `mfa_token` for ``ErrorCode/mfaRequired``), plus what the
/// headers said.
public struct ServerError: Sendable, Equatable {
    /// The contract's stable code; decide on this, never on ``message``.
    public var code: ErrorCode
    /// The server's own text, for logs and support requests: it may be written for developers ("A valid access
    /// token is required."), so show ``GatehouseError/errorDescription`` (`localizedDescription`) instead. For a
    /// body that is not the contract's (a proxy's page), the HTTP status text; the body is in ``rawBody``.
    public var message: String
    /// The HTTP status (400, 401, 403, 429, 503 …).
    public var status: Int
    /// `X-Request-Id`, for support requests and logs.
    public var requestID: String?
    /// Seconds to wait (429, 503), from `Retry-After`.
    public var retryAfter: Int?
    /// The start (at most 512 characters) of a body that is not the contract's error shape, such as a proxy's
    /// HTML page, for logs; `nil` for a contract error body.
    public var rawBody: String? = nil
    /// The second step of a sign-in that answered ``ErrorCode/mfaRequired`` (`mfa_token`, good for 5 minutes and one
    /// sign-in): pass it to ``GatehouseClient/completeSecondFactor(mfaToken:code:)`` with the authenticator app's code.
    /// `nil` for every other error. It is a credential of sorts, so it is never part of ``GatehouseError/description``.
    public var mfaToken: String? = nil

    /// Whether ``message`` came from a contract error body (rather than a proxy's page or the status text).
    var isContractBody: Bool { rawBody == nil }
}

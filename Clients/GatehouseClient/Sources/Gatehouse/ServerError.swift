import Foundation

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
    /// Seconds to wait (429, 503), from `Retry-After`.
    public var retryAfter: Int?
}

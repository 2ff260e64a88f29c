import Foundation

/// An error answered by Cognito (decoded from `__type`) or a failure to reach it. The message is for
/// the log only: Cognito's messages can carry usernames (moto even puts tokens in them), so they
/// never reach our clients.
public struct CognitoError: Error, Sendable, CustomStringConvertible {
    /// The exception name, e.g. `UserNotFoundException`; `HTTP503`, `Transport` or `BadResponse` when
    /// Cognito did not answer with a typed error.
    public let code: String
    public let message: String
    public let status: Int

    public init(code: String, message: String, status: Int) {
        self.code = code
        self.message = message
        self.status = status
    }

    /// Throttling and server-side failures are worth retrying; everything else is an answer.
    public var isRetryable: Bool {
        ["TooManyRequestsException", "ThrottlingException", "InternalErrorException", "InternalFailure", "ServiceUnavailable", "Transport"].contains(
            code
        )
            || status >= 500
    }

    public var description: String { "Cognito \(code) (HTTP \(status))" }
}

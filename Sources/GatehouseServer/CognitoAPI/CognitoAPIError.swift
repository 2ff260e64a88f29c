import HTTPTypes

/// An error of Cognito's user-pool API as Cognito writes it: HTTP 400 for a client's error (429 and
/// 5xx where Cognito's service model declares them), `{"__type": "<Exception>", "message": "…"}`, and
/// the `X-Amzn-ErrorType` header the AWS SDKs read first.
struct CognitoAPIError: Error, Sendable, Equatable {
    let status: HTTPResponse.Status
    /// The exception's name (`NotAuthorizedException`, …).
    let type: String
    let message: String

    init(_ type: String, _ message: String, status: HTTPResponse.Status = .badRequest) {
        self.type = type
        self.message = message
        self.status = status
    }

    /// Wrong password, unknown user, and every SRP refusal: one message, so none tells them apart.
    static let incorrectCredentials = CognitoAPIError("NotAuthorizedException", "Incorrect username or password.")

    static func invalidParameter(_ message: String) -> CognitoAPIError { CognitoAPIError("InvalidParameterException", message) }
    static func serialization(_ message: String) -> CognitoAPIError { CognitoAPIError("SerializationException", message) }
    static func unsupported(_ operation: String) -> CognitoAPIError {
        CognitoAPIError("UnsupportedOperationException", "\(operation) is not supported by this user pool.")
    }
}

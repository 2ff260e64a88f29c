import GatehouseCore
import HTTPTypes
import Hummingbird

/// The core's errors as HTTP: the code decides the status; the server target alone knows this.
extension GatehouseError: HTTPResponseError, ContractFailure {
    /// The HTTP status of the error's code.
    public var status: HTTPResponse.Status {
        switch code {
        case .invalidRequest, .invalidPassword, .codeMismatch, .codeExpired: .badRequest
        case .invalidCredentials, .invalidToken, .invalidGrant, .invalidSession, .unauthorized: .unauthorized
        case .userNotConfirmed, .forbidden, .providerDisabled, .reauthenticationRequired, .mfaRequired, .userDisabled: .forbidden
        case .notFound: .notFound
        case .conflict: .conflict
        case .tooManyRequests: .tooManyRequests
        case .upstreamUnavailable, .unavailable: .serviceUnavailable
        case .notSupported: .notImplemented
        default: .internalServerError
        }
    }

    var wireCode: String { code.rawValue }
    var logCause: String? { cause }

    var extraHeaders: HTTPFields {
        var headers = HTTPFields()
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if code == .unauthorized { headers[.wwwAuthenticate] = #"Bearer error="invalid_token""# }
        return headers
    }

    /// The contract's error response for this error.
    /// - Parameters:
    ///   - request: The request that failed.
    ///   - context: Its context.
    /// - Returns: The response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        contractResponse()
    }
}

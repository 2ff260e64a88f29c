import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import NIOCore

extension GatehouseError {
    /// The core's errors as the OAuth 2.0 endpoints answer them (RFC 6749 §5.2; the one place this mapping lives).
    var oauthError: OAuthError {
        switch code {
        case .invalidGrant, .invalidCredentials, .userNotConfirmed: OAuthError("invalid_grant", message)
        case .unauthorized: OAuthError("invalid_client", message, status: .unauthorized)
        case .tooManyRequests: OAuthError("slow_down", message, status: .tooManyRequests, retryAfter: retryAfter)
        case .invalidRequest, .invalidToken: OAuthError("invalid_request", message)
        case .upstreamUnavailable, .unavailable: OAuthError("temporarily_unavailable", message, status: .serviceUnavailable)
        default: OAuthError("server_error", "Something went wrong on our side.", status: .internalServerError)
        }
    }
}

/// An OAuth 2.0 error answer: `{"error", "error_description"}`, never cached.
struct OAuthError: Error, Sendable {
    let error: String
    let description: String
    let status: HTTPResponse.Status
    let retryAfter: Int?

    init(_ error: String, _ description: String, status: HTTPResponse.Status = .badRequest, retryAfter: Int? = nil) {
        self.error = error
        self.description = description
        self.status = status
        self.retryAfter = retryAfter
    }

    /// A transport failure (wrong media type, oversized or malformed body) as OAuth's `invalid_request`.
    init(_ failure: any ContractFailure) {
        self.init("invalid_request", failure.message, status: failure.status == .contentTooLarge ? .contentTooLarge : .badRequest)
    }

    var response: Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store", .init("Pragma")!: "no-cache"]
        if let retryAfter { headers[.retryAfter] = String(retryAfter) }
        if status == .unauthorized { headers[.wwwAuthenticate] = "Basic realm=\"gatehouse\"" }
        let body = JSONValue.object(["error": .string(error), "error_description": .string(description)]).serialized()
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

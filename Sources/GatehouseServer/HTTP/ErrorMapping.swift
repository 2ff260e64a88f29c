import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import NIOCore

/// The one place errors become HTTP: a ``GatehouseError`` code decides the status; Hummingbird's and
/// NIO's own errors (unknown route, body too large — `NIOTooManyBytesError` when a chunked body
/// outgrows the cap) are translated to our codes by their status; anything else is an opaque 500 whose
/// cause goes to the log with the request id.
enum ErrorMapping {
    static func status(for code: GatehouseError.Code) -> HTTPResponse.Status {
        switch code {
        case .invalidRequest, .invalidPassword, .codeMismatch, .codeExpired: .badRequest
        case .invalidCredentials, .invalidToken, .invalidGrant, .unauthorized: .unauthorized
        case .userNotConfirmed, .forbidden, .providerDisabled: .forbidden
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .conflict: .conflict
        case .payloadTooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        case .tooManyRequests: .tooManyRequests
        case .upstreamUnavailable, .unavailable: .serviceUnavailable
        default: .internalServerError
        }
    }

    /// Translates any error into a ``GatehouseError``.
    static func gatehouseError(from error: any Error) -> GatehouseError {
        switch error {
        case let error as GatehouseError:
            return error
        case let error as any HTTPResponseError:
            // HTTPError, NIOTooManyBytesError and any other error that names its own status.
            switch error.status {
            case .notFound: return GatehouseError(.notFound, "No such resource.")
            case .contentTooLarge: return GatehouseError(.payloadTooLarge, "The request body is too large.")
            case .methodNotAllowed: return GatehouseError(.methodNotAllowed, "Method not allowed.")
            case .badRequest: return .invalidRequest("The request is malformed.")
            default: return .internalError(cause: "\(type(of: error)) with status \(error.status.code)")
            }
        default:
            return .internalError(cause: String(reflecting: error))
        }
    }

    static func response(for error: GatehouseError, requestID: String) -> Response {
        let body = JSONValue.object([
            "error": .object(["code": .string(error.code.rawValue), "message": .string(error.message)])
        ]).serialized()
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8", .cacheControl: "no-store"]
        if let retryAfter = error.retryAfter { headers[.retryAfter] = String(retryAfter) }
        if !error.allowedMethods.isEmpty { headers[.allow] = error.allowedMethods.joined(separator: ", ") }
        if error.code == .unauthorized { headers[.wwwAuthenticate] = #"Bearer error="invalid_token""# }
        return Response(status: status(for: error.code), headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }
}

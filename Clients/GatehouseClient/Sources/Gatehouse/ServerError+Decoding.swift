import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ServerError {
    /// The longest part of a non-contract body kept in ``rawBody``.
    static let rawBodyLimit = 512

    static func decode(_ data: Data, _ response: HTTPURLResponse) -> ServerError {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        let code = (error?["code"] as? String).map(ErrorCode.init(rawValue:)) ?? .other("http_\(response.statusCode)")
        let message = error?["message"] as? String
        return ServerError(
            code: code,
            message: message ?? HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
            status: response.statusCode,
            requestID: response.value(forHTTPHeaderField: "X-Request-Id"),
            retryAfter: response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) },
            rawBody: error?["code"] is String && message != nil ? nil : String(String(decoding: data, as: UTF8.self).prefix(rawBodyLimit)),
            // Sent with mfa_required only; an empty one is no token.
            mfaToken: (error?["mfa_token"] as? String).flatMap { $0.isEmpty ? nil : $0 }
        )
    }
}

import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ServerError {
    static func decode(_ data: Data, _ response: HTTPURLResponse) -> ServerError {
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        let error = object?["error"] as? [String: Any]
        let code = (error?["code"] as? String).map(ErrorCode.init(rawValue:)) ?? .other("http_\(response.statusCode)")
        return ServerError(
            code: code,
            message: error?["message"] as? String ?? HTTPURLResponse.localizedString(forStatusCode: response.statusCode),
            status: response.statusCode,
            requestID: response.value(forHTTPHeaderField: "X-Request-Id"),
            retryAfter: response.value(forHTTPHeaderField: "Retry-After").flatMap { Int($0) }
        )
    }
}

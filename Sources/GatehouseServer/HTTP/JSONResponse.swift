import HTTPTypes
import Hummingbird
import NIOCore

/// JSON responses: `Cache-Control: no-store` where the body holds tokens, codes or profiles.
enum JSONResponse {
    /// - Parameters:
    ///   - status: The status.
    ///   - body: The JSON bytes.
    ///   - noStore: Whether to forbid caching.
    /// - Returns: The response.
    static func make(_ status: HTTPResponse.Status = .ok, body: [UInt8], noStore: Bool = true) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if noStore { headers[.cacheControl] = "no-store" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    /// `204 No Content`, `Cache-Control: no-store`.
    /// - Returns: The response.
    static func noContent() -> Response {
        Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}

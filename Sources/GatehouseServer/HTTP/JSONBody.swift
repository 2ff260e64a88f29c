import Foundation
import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import NIOCore

/// Reads a JSON request body the way the contract says: `Content-Type: application/json` (415
/// otherwise), capped before it is read whole (413), UTF-8, an object at the top level, and no
/// duplicate member names (400).
enum JSONBody {
    static func read(_ request: Request, context: GatehouseRequestContext, limit: Int) async throws -> JSONObjectReader {
        guard let contentType = request.headers[.contentType], isJSON(contentType) else {
            throw GatehouseError(.unsupportedMediaType, "Send the body as application/json.")
        }
        let buffer = try await collect(request, limit: limit)
        guard buffer.readableBytes > 0 else { throw GatehouseError.invalidRequest("The request body is empty.") }
        let value: JSONValue
        do {
            value = try buffer.withUnsafeReadableBytes { raw in
                try StrictJSONParser(maxDepth: 16).parse(UnsafeRawBufferPointer(raw).bindMemory(to: UInt8.self))
            }
        } catch let failure as StrictJSONParser.Failure {
            throw GatehouseError.invalidRequest("The body is not valid JSON: \(failure.reason).")
        }
        return try JSONObjectReader(value)
    }

    /// Collects at most `limit` bytes; a declared or actual larger body is refused without reading it all.
    static func collect(_ request: Request, limit: Int) async throws -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw GatehouseError(.payloadTooLarge, "The request body is larger than \(limit) bytes.")
        }
        var request = request
        do {
            return try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            // A body without Content-Length (chunked) that outgrew the cap: refused at the cap.
            throw GatehouseError(.payloadTooLarge, "The request body is larger than \(limit) bytes.")
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw GatehouseError(.payloadTooLarge, "The request body is larger than \(limit) bytes.")
        }
    }

    /// `application/json`, optionally with `charset=utf-8`; any other charset is refused.
    static func isJSON(_ contentType: String) -> Bool {
        // What clients send, compared without splitting; other spellings take the general path.
        if contentType == "application/json" || contentType == "application/json; charset=utf-8" { return true }
        let parts = contentType.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        guard parts.first == "application/json" else { return false }
        for parameter in parts.dropFirst() {
            let kv = parameter.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if kv.first == "charset", kv.count == 2, kv[1].trimmingCharacters(in: ["\""]) != "utf-8" { return false }
        }
        return true
    }
}

/// JSON responses: our serializer, `Cache-Control: no-store` where the body holds tokens, codes or
/// profiles.
enum JSONResponse {
    static func make(_ status: HTTPResponse.Status = .ok, _ value: JSONValue, noStore: Bool = true) -> Response {
        make(status, body: value.serialized(), noStore: noStore)
    }

    static func make(_ status: HTTPResponse.Status = .ok, body: [UInt8], noStore: Bool = true) -> Response {
        var headers: HTTPFields = [.contentType: "application/json; charset=utf-8"]
        if noStore { headers[.cacheControl] = "no-store" }
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: body)))
    }

    static func noContent() -> Response {
        Response(status: .noContent, headers: [.cacheControl: "no-store"])
    }
}

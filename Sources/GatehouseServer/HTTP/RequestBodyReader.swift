import Foundation
import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import NIOCore

/// Reads request bodies the way the contract says: `Content-Type: application/json` (415
/// otherwise), capped before it is read whole (413, declared or chunked), UTF-8, an object at the
/// top level, no duplicate member names, and the request type's declared fields present, of the
/// right type and within their limits (400 `invalid_request` for all of these).
///
/// Foundation's `JSONDecoder` accepts duplicate member names and lone surrogates, so the body is
/// first checked by ``StrictJSONParser`` and the declared fields by ``JSONObjectReader`` (one
/// message per field); only then is it decoded into the request type.
struct RequestBodyReader: Sendable {
    /// The largest body accepted, in bytes.
    let limit: Int

    /// Decodes a JSON body into a contract request type.
    /// - Parameters:
    ///   - type: The request type.
    ///   - request: The request.
    /// - Returns: The decoded body.
    /// - Throws: ``TransportError`` (413, 415) or `GatehouseError.invalidRequest`.
    func decode<Body: ContractRequest>(_ type: Body.Type, from request: Request) async throws -> Body {
        guard let contentType = request.headers[.contentType], Self.isJSON(contentType) else {
            throw TransportError(.unsupportedMediaType, "Send the body as application/json.")
        }
        return try decode(type, json: try await collect(request))
    }

    /// Decodes a JSON body if the request has one; nil for a request without a body, as a `DELETE`
    /// usually is (an empty body counts as none, whatever its `Content-Type` says).
    /// - Parameters:
    ///   - type: The request type.
    ///   - request: The request.
    /// - Returns: The decoded body, or nil.
    /// - Throws: As ``decode(_:from:)``.
    func decodeIfPresent<Body: ContractRequest>(_ type: Body.Type, from request: Request) async throws -> Body? {
        let buffer = try await collect(request)
        guard buffer.readableBytes > 0 else { return nil }
        guard let contentType = request.headers[.contentType], Self.isJSON(contentType) else {
            throw TransportError(.unsupportedMediaType, "Send the body as application/json.")
        }
        return try decode(type, json: buffer)
    }

    /// Decodes a JSON body into a contract request type, as ``decode(_:from:)``, and hands back the
    /// body as a value too: for bodies that carry another standard's JSON (WebAuthn's credentials),
    /// which the use case verifies from the JSON itself once the declared members have passed.
    /// - Parameters:
    ///   - type: The request type.
    ///   - request: The request.
    /// - Returns: The decoded body and the same body as a value.
    /// - Throws: As ``decode(_:from:)``.
    func decodeWithJSON<Body: ContractRequest>(_ type: Body.Type, from request: Request) async throws -> (body: Body, json: JSONValue) {
        guard let contentType = request.headers[.contentType], Self.isJSON(contentType) else {
            throw TransportError(.unsupportedMediaType, "Send the body as application/json.")
        }
        return try decodeKeepingJSON(type, json: try await collect(request))
    }

    /// Decodes a collected JSON body into a contract request type.
    private func decode<Body: ContractRequest>(_ type: Body.Type, json buffer: ByteBuffer) throws -> Body {
        try decodeKeepingJSON(type, json: buffer).body
    }

    /// Decodes a collected JSON body into a contract request type, keeping the parsed value.
    private func decodeKeepingJSON<Body: ContractRequest>(_ type: Body.Type, json buffer: ByteBuffer) throws -> (body: Body, json: JSONValue) {
        guard buffer.readableBytes > 0 else { throw GatehouseError.invalidRequest("The request body is empty.") }
        let value: JSONValue
        do {
            value = try buffer.withUnsafeReadableBytes { raw in
                try StrictJSONParser(maxDepth: 16).parse(UnsafeRawBufferPointer(raw).bindMemory(to: UInt8.self))
            }
        } catch let failure as StrictJSONParser.Failure {
            throw GatehouseError.invalidRequest("The body is not valid JSON: \(failure.reason).")
        }
        let object = try JSONObjectReader(value)
        for field in Body.fields where field.kind == .string {
            try Self.check(field, in: object, cap: limit)
        }
        do {
            return (try JSONDecoder().decode(Body.self, from: Data(buffer.readableBytesView)), value)
        } catch {
            guard let member = Self.member(of: error) else {
                throw GatehouseError.invalidRequest("The body does not have the members this endpoint expects.")
            }
            throw GatehouseError.invalidRequest("'\(member)' is missing or not of the type this endpoint expects.")
        }
    }

    /// The member a decoding failure is about, as a dotted path (`response.signature`), if it names one.
    /// - Parameter error: What the decoder threw.
    /// - Returns: The path, or nil.
    static func member(of error: any Error) -> String? {
        let path: [any CodingKey]
        switch error as? DecodingError {
        case .keyNotFound(let key, let context)?: path = context.codingPath + [key]
        case .typeMismatch(_, let context)?, .valueNotFound(_, let context)?, .dataCorrupted(let context)?: path = context.codingPath
        default: return nil
        }
        return path.isEmpty ? nil : path.map { $0.intValue.map(String.init) ?? $0.stringValue }.joined(separator: ".")
    }

    /// Checks one string member as the document declares it: present when required, a string (or
    /// `null` where allowed), not empty where refused, and within its `maxLength` (else the body cap).
    /// - Parameters:
    ///   - field: The member's declaration.
    ///   - object: The body.
    ///   - cap: The length when the document gives none.
    /// - Throws: `GatehouseError.invalidRequest` naming the member.
    static func check(_ field: ContractField, in object: JSONObjectReader, cap: Int) throws {
        switch object.members[field.name] {
        case nil, .null?:
            if field.required { throw GatehouseError.invalidRequest("'\(field.name)' is required.") }
        case .string(let value)?:
            if value.isEmpty {
                if field.refusesEmpty { throw GatehouseError.invalidRequest("'\(field.name)' must not be empty.") }
            } else if value.unicodeScalars.count > (field.maxLength ?? cap) {
                throw GatehouseError.invalidRequest("'\(field.name)' is longer than \(field.maxLength ?? cap) characters.")
            }
        case let other?:
            let expected = field.nullable ? "a string or null" : "a string"
            throw GatehouseError.invalidRequest("'\(field.name)' must be \(expected), not \(other.typeName).")
        }
    }

    /// Collects at most ``limit`` bytes; a declared or actual larger body is refused without reading it all.
    /// - Parameter request: The request.
    /// - Returns: The body.
    /// - Throws: ``TransportError`` 413, or 400 when the body's framing is broken.
    func collect(_ request: Request) async throws -> ByteBuffer {
        if let declared = request.headers[.contentLength].flatMap({ Int($0) }), declared > limit {
            throw TransportError.payloadTooLarge(limit: limit)
        }
        var request = request
        do {
            return try await request.collectBody(upTo: limit)
        } catch is NIOTooManyBytesError {
            // A body without Content-Length (chunked) that outgrew the cap: refused at the cap.
            throw TransportError.payloadTooLarge(limit: limit)
        } catch let error as HTTPError where error.status == .contentTooLarge {
            throw TransportError.payloadTooLarge(limit: limit)
        } catch {
            // Anything else the body stream throws is the HTTP parser refusing the framing (a bad chunk
            // size, a chunk longer than declared, an unknown transfer coding) or the client closing
            // mid-body: a 400 logged as a refusal, never a server failure.
            throw TransportError.malformedBody(error)
        }
    }

    /// `application/json`, optionally with `charset=utf-8`; any other charset is refused.
    /// - Parameter contentType: The `Content-Type` value.
    /// - Returns: Whether it is JSON in UTF-8.
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

import GatehouseCore
import HTTPTypes

/// The access token of a protected request: exactly one `Authorization: Bearer <token>` header.
enum BearerToken {
    /// The token of the request's single `Authorization` header.
    /// - Parameter headers: The request's headers.
    /// - Returns: The token.
    /// - Throws: `GatehouseError.unauthorized` when there is no header, several, or not a Bearer token.
    static func token(in headers: HTTPFields) throws(GatehouseError) -> String {
        let values = headers[values: .authorization]
        guard values.count == 1, let value = values.first else {
            throw .unauthorized(cause: values.isEmpty ? "no Authorization header" : "several Authorization headers")
        }
        guard let token = parse(value) else { throw .unauthorized(cause: "Authorization is not a Bearer token") }
        return token
    }

    /// The token of `Bearer <token>` (scheme case-insensitive, spaces around the token ignored).
    /// Works on the contiguous UTF-8 bytes with indices: this runs on every protected request, and
    /// walking a token of a kilobyte through `Substring.UTF8View` cost more than the rest of the check.
    /// - Parameter header: One `Authorization` value.
    /// - Returns: The token, or `nil` when the value is not a Bearer token.
    static func parse(_ header: String) -> String? {
        var header = header
        return header.withUTF8 { bytes -> String? in
            let space = UInt8(ascii: " ")
            var start = 0
            var end = bytes.count
            while start < end, bytes[start] == space { start += 1 }
            while end > start, bytes[end - 1] == space { end -= 1 }
            guard end - start > 7 else { return nil }
            for (offset, letter) in "bearer".utf8.enumerated() where bytes[start + offset] | 0x20 != letter { return nil }
            guard bytes[start + 6] == space else { return nil }
            var tokenStart = start + 7
            while tokenStart < end, bytes[tokenStart] == space { tokenStart += 1 }
            guard tokenStart < end else { return nil }
            for index in tokenStart..<end where bytes[index] == space { return nil }
            return String(decoding: UnsafeBufferPointer(rebasing: bytes[tokenStart..<end]), as: UTF8.self)
        }
    }
}

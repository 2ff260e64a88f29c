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
    /// Works on the UTF-8 bytes: this runs on every protected request.
    /// - Parameter header: One `Authorization` value.
    /// - Returns: The token, or `nil` when the value is not a Bearer token.
    static func parse(_ header: String) -> String? {
        var bytes = Substring(header).utf8[...]
        while bytes.first == UInt8(ascii: " ") { bytes = bytes.dropFirst() }
        while bytes.last == UInt8(ascii: " ") { bytes = bytes.dropLast() }
        guard bytes.count > 7 else { return nil }
        let scheme = bytes.prefix(6)
        guard zip(scheme, "bearer".utf8).allSatisfy({ $0 | 0x20 == $1 }), bytes.dropFirst(6).first == UInt8(ascii: " ") else { return nil }
        var token = bytes.dropFirst(7)
        while token.first == UInt8(ascii: " ") { token = token.dropFirst() }
        guard !token.isEmpty, !token.contains(UInt8(ascii: " ")) else { return nil }
        return String(Substring(token))
    }
}

import Foundation
import HTTPTypes
import Hummingbird
import NIOCore

/// A response body of the contract: `Encodable`, written as JSON with `Cache-Control: no-store`
/// unless the endpoint says otherwise.
public protocol ContractResponse: Encodable, Sendable {}

extension ContractResponse {
    /// The body's JSON bytes: keys sorted (equal answers are equal bytes), slashes unescaped.
    /// - Returns: The UTF-8 bytes.
    /// - Throws: `EncodingError` (not for the contract's types, which hold strings, numbers and booleans).
    public func jsonBytes() throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array(try encoder.encode(self))
    }

    /// The HTTP response that carries this body.
    /// - Parameters:
    ///   - status: The status to answer with.
    ///   - noStore: Whether to forbid caching (bodies with tokens, codes or profiles).
    /// - Returns: The response.
    /// - Throws: `EncodingError` (not for the contract's types).
    public func response(_ status: HTTPResponse.Status = .ok, noStore: Bool = true) throws -> Response {
        JSONResponse.make(status, body: try jsonBytes(), noStore: noStore)
    }
}

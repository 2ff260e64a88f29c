import HTTPTypes
import Hummingbird

/// Refusals that belong to HTTP, not to the domain: an unknown path, a method a path does not
/// allow, a body too large or of the wrong media type. The core never sees these.
public struct TransportError: Error, Sendable, HTTPResponseError, ContractFailure {
    /// The transport codes of the contract.
    public enum Code: String, Sendable, CaseIterable {
        case notFound = "not_found"
        case methodNotAllowed = "method_not_allowed"
        case payloadTooLarge = "payload_too_large"
        case unsupportedMediaType = "unsupported_media_type"
    }

    /// The refusal.
    public let code: Code
    /// Text safe to show to a client.
    public let message: String
    /// The methods the path does allow (405 only), sent as `Allow`.
    public let allowedMethods: [HTTPRequest.Method]

    /// - Parameters:
    ///   - code: The refusal.
    ///   - message: Text safe to show to a client.
    ///   - allowedMethods: The methods the path does allow (405 only).
    public init(_ code: Code, _ message: String, allowedMethods: [HTTPRequest.Method] = []) {
        self.code = code
        self.message = message
        self.allowedMethods = allowedMethods
    }

    /// No route has this path.
    public static let noSuchResource = TransportError(.notFound, "No such resource.")

    /// A body over the cap.
    /// - Parameter limit: The cap in bytes.
    /// - Returns: The refusal.
    public static func payloadTooLarge(limit: Int) -> TransportError {
        TransportError(.payloadTooLarge, "The request body is larger than \(limit) bytes.")
    }

    /// The HTTP status of the code.
    public var status: HTTPResponse.Status {
        switch code {
        case .notFound: .notFound
        case .methodNotAllowed: .methodNotAllowed
        case .payloadTooLarge: .contentTooLarge
        case .unsupportedMediaType: .unsupportedMediaType
        }
    }

    var wireCode: String { code.rawValue }
    var logCause: String? { nil }
    var extraHeaders: HTTPFields {
        allowedMethods.isEmpty ? [:] : [.allow: allowedMethods.map(\.rawValue).joined(separator: ", ")]
    }

    /// The contract's error response for this refusal.
    /// - Parameters:
    ///   - request: The request refused.
    ///   - context: Its context.
    /// - Returns: The response.
    public func response(from request: Request, context: some RequestContext) throws -> Response {
        contractResponse()
    }
}

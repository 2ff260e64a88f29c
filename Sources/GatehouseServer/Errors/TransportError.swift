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
        /// The body's HTTP framing is broken (a bad chunk, an unknown transfer coding) or the client
        /// went away before sending it all: the client's error, never the server's.
        case malformedBody = "invalid_request"
    }

    /// The refusal.
    public let code: Code
    /// Text safe to show to a client.
    public let message: String
    /// The methods the path does allow (405 only), sent as `Allow`.
    public let allowedMethods: [HTTPRequest.Method]
    /// What went wrong, for the log only (never sent).
    let cause: String?

    /// - Parameters:
    ///   - code: The refusal.
    ///   - message: Text safe to show to a client.
    ///   - allowedMethods: The methods the path does allow (405 only).
    public init(_ code: Code, _ message: String, allowedMethods: [HTTPRequest.Method] = []) {
        self.code = code
        self.message = message
        self.allowedMethods = allowedMethods
        self.cause = nil
    }

    init(_ code: Code, _ message: String, cause: String) {
        self.code = code
        self.message = message
        self.allowedMethods = []
        self.cause = cause
    }

    /// A body that could not be read: broken framing, or the connection ended mid-body.
    /// - Parameter error: What the HTTP layer reported, for the log.
    /// - Returns: The refusal (400).
    static func malformedBody(_ error: any Error) -> TransportError {
        TransportError(
            .malformedBody,
            "The request body could not be read: its HTTP framing is malformed, or the connection ended before it was complete.",
            cause: String(describing: error)
        )
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
        case .malformedBody: .badRequest
        }
    }

    var wireCode: String { code.rawValue }
    var logCause: String? { cause }
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

/// Why a transport could not send a text message, and whether trying again later can help.
public struct SMSTransportError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whether a later attempt can succeed.
    public enum Kind: String, Sendable {
        /// Throttling, a 5xx answer, a timeout, a refused or dropped connection: retry with back-off.
        case transient
        /// A refused number or message, a bad request, refused credentials or permissions: give up.
        case permanent
    }

    /// Whether to retry.
    public var kind: Kind
    /// What failed, for the log: never a secret, the text (it may hold a code) or the recipient's number.
    public var detail: String
    /// The HTTP status, when there was one.
    public var code: Int?

    /// An error.
    /// - Parameters:
    ///   - kind: Whether to retry.
    ///   - detail: What failed, safe to log.
    ///   - code: The HTTP status, if any.
    public init(_ kind: Kind, _ detail: String, code: Int? = nil) {
        self.kind = kind
        self.detail = detail
        self.code = code
    }

    /// The kind, the code and the detail, for the log.
    public var description: String { "\(kind.rawValue) SMS failure\(code.map { " (\($0))" } ?? ""): \(detail)" }
}

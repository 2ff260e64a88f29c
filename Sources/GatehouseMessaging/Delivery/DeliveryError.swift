import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Why a transport (mail or SMS) could not send a message, and whether trying again later can help.
public struct DeliveryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Whether the delivery service retries.
    public enum Kind: String, Sendable {
        /// A 4xx SMTP reply, a timeout, a refused or dropped connection, a throttled API: retried with back-off.
        case transient
        /// A 5xx SMTP reply, a rejected message, number or credentials: dead-lettered at once.
        case permanent
    }

    /// Whether to retry.
    public var kind: Kind
    /// What failed, for the log: never a password, a code or the recipient's address or number.
    public var detail: String
    /// The SMTP reply code or HTTP status, when there was one.
    public var code: Int?

    /// An error.
    /// - Parameters:
    ///   - kind: Whether to retry.
    ///   - detail: What failed, safe to log.
    ///   - code: The SMTP reply code or HTTP status, if any.
    public init(_ kind: Kind, _ detail: String, code: Int? = nil) {
        self.kind = kind
        self.detail = detail
        self.code = code
    }

    /// The kind, the code and the detail, for the log.
    public var description: String { "\(kind.rawValue) delivery failure\(code.map { " (\($0))" } ?? ""): \(detail)" }
}

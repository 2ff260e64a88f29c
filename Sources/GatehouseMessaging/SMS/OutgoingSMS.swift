import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// One text message ready for an ``SMSTransport``.
public struct OutgoingSMS: Sendable, Equatable {
    /// The sender's id for the message, for logs and the outbox's file name; never the number.
    public var id: String
    /// The recipient in E.164 (`+447700900123`), already validated by the caller.
    public var to: String
    /// The whole text, as the recipient reads it (it may hold a code: never logged).
    public var text: String
    /// What the message is (`phone_sign_in`, `phone_verify`), for logs, metrics and the outbox's file name.
    public var kind: String

    /// A message ready to send.
    /// - Parameters:
    ///   - id: The sender's id, safe in a file name (letters, digits, `-` and `_`).
    ///   - to: The recipient in E.164.
    ///   - text: The text.
    ///   - kind: What it is, safe in a file name.
    public init(id: String, to: String, text: String, kind: String) {
        self.id = id
        self.to = to
        self.text = text
        self.kind = kind
    }

    /// Whether `number` is in E.164: `+`, a first digit 1–9, and at most 15 digits in all.
    /// - Parameter number: The text to test.
    /// - Returns: Whether it is an E.164 number.
    public static func isE164(_ number: String) -> Bool {
        let digits = number.utf8.dropFirst()
        return number.utf8.first == UInt8(ascii: "+") && (2...15).contains(digits.count)
            && digits.allSatisfy { (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) } && digits.first != UInt8(ascii: "0")
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// A message to one recipient, plain text.
public struct MailMessage: Sendable, Equatable {
    /// What the message is (`confirm_signup`, `reset_password`, `already_registered`, `password_changed`),
    /// for logs and metrics: the log says *a* message of this kind was written, never to whom or its code.
    public var kind: String
    /// The recipient's address in clear; never logged.
    public var to: String
    /// The subject line (may contain the code, so it is never logged either).
    public var subject: String
    /// The plain-text body, LF line endings; transports encode it (quoted-printable, CRLF).
    public var body: String
    /// The HTML body, when the message has one.
    public var html: String?

    /// A message.
    /// - Parameters:
    ///   - kind: What it is, for logs and metrics.
    ///   - to: The recipient's address.
    ///   - subject: The subject line.
    ///   - body: The plain-text body.
    ///   - html: The HTML body, if any.
    public init(kind: String, to: String, subject: String, body: String, html: String? = nil) {
        self.kind = kind
        self.to = to
        self.subject = subject
        self.body = body
        self.html = html
    }
}

import Foundation
import Logging

/// A message to one recipient, plain text.
public struct MailMessage: Sendable, Equatable {
    /// What the message is (`confirm_signup`, `reset_password`, `already_registered`, `password_changed`),
    /// for logs and metrics: the log says *a* message of this kind was written, never to whom or its code.
    public var kind: String
    public var to: String
    public var subject: String
    public var body: String

    public init(kind: String, to: String, subject: String, body: String) {
        self.kind = kind
        self.to = to
        self.subject = subject
        self.body = body
    }
}

/// Delivers mail. `logger` is the request's, so the line saying a message went out carries the request id.
public protocol Mailer: Sendable {
    func send(_ message: MailMessage, logger: Logger) async throws
}

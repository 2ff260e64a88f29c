import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// One message ready for a ``MailTransport``: the envelope and the complete RFC 5322 text.
public struct OutgoingMail: Sendable, Equatable {
    /// The queue's id for the message (also in its `Message-ID`), for logs; never the recipient.
    public var id: String
    /// What the message is, for logs and metrics.
    public var kind: String
    /// The envelope sender (`MAIL FROM`, SES's `FromEmailAddress`): a bare address.
    public var sender: String
    /// The envelope recipient (`RCPT TO`, SES's destination): a bare address.
    public var recipient: String
    /// The whole message, headers and body, with CRLF line endings.
    public var data: [UInt8]
    /// The rendered parts (subject, text, HTML), for the outbox's file name and for tests.
    public var message: MailMessage

    /// A message ready to send.
    /// - Parameters:
    ///   - id: The queue's id.
    ///   - kind: What it is.
    ///   - sender: The envelope sender.
    ///   - recipient: The envelope recipient.
    ///   - data: The RFC 5322 text, CRLF line endings.
    ///   - message: The rendered parts.
    public init(id: String, kind: String, sender: String, recipient: String, data: [UInt8], message: MailMessage) {
        self.id = id
        self.kind = kind
        self.sender = sender
        self.recipient = recipient
        self.data = data
        self.message = message
    }
}

import Foundation

/// Writes a finished ``MailMessage`` (the user pool's path to the outbox) as a MIME message through
/// ``MIMEMessage``, the same writer ``MailRenderer`` uses; goes with ``MailTemplates`` once the pool
/// queues ``MailRequest``s.
enum RFC5322Message {
    /// - Throws: ``MailTransportError`` (permanent) when the sender or recipient cannot be a header.
    static func render(_ message: MailMessage, from: String, date: Date, messageID: String) throws -> String {
        let sender: MailAddress
        let recipient: MailAddress
        do {
            sender = try MailAddress(parsing: from)
            recipient = try MailAddress(address: message.to)
        } catch {
            throw MailTransportError(.permanent, "an address cannot be written in a header: \(error.reason)")
        }
        let id = messageID.split(separator: "@").first.map(String.init) ?? messageID
        let mime = MIMEMessage(
            from: sender,
            to: recipient,
            replyTo: nil,
            subject: message.subject,
            text: message.body,
            html: message.html,
            date: date,
            id: id,
            kind: message.kind
        )
        return String(decoding: try mime.render(), as: UTF8.self)
    }
}

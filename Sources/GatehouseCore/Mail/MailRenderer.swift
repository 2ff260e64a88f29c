import Foundation

/// Turns a ``MailRequest`` into the message a transport sends: subject, text and HTML parts, headers.
public struct MailRenderer: Sendable {
    let templates: MailTemplates
    /// The `From:` header value.
    let from: String
    /// The envelope sender: the bare address of `from`.
    let sender: String
    let replyTo: String?

    /// A renderer.
    /// - Parameters:
    ///   - appName: The product name the messages use.
    ///   - from: `GATEHOUSE_MAIL_FROM`: `Name <address>` or a bare address.
    ///   - replyTo: `GATEHOUSE_MAIL_REPLY_TO`, if set.
    ///   - templatesDirectory: `GATEHOUSE_MAIL_TEMPLATES`: a directory whose files replace the built-in
    ///     templates of the same name.
    /// - Throws: ``MailSettingsError`` for an address that cannot be a header or a template that
    ///   does not parse.
    public init(appName: String, from: String, replyTo: String? = nil, templatesDirectory: String? = nil) throws {
        templates = MailTemplates(appName: appName)
        guard !from.contains(where: \.isNewline) else { throw MailSettingsError(variable: "GATEHOUSE_MAIL_FROM", "must be one line") }
        self.from = from
        if let open = from.lastIndex(of: "<"), let close = from.lastIndex(of: ">"), open < close {
            sender = String(from[from.index(after: open)..<close])
        } else {
            sender = from.trimmingCharacters(in: .whitespaces)
        }
        self.replyTo = replyTo
    }

    /// Renders a message.
    /// - Parameters:
    ///   - request: What to say, to whom.
    ///   - id: The queue's id (the `Message-ID`'s left part).
    ///   - date: The `Date:` header.
    /// - Returns: The message with its envelope.
    /// - Throws: ``MailTransportError`` (permanent) when the request cannot be rendered.
    public func render(_ request: MailRequest, id: String, date: Date) throws -> OutgoingMail {
        let lifetime = TimeInterval(request.lifetime ?? 0)
        let message: MailMessage
        switch request.kind {
        case .confirmSignUp:
            message = templates.confirmSignUp(to: request.to, name: request.name, code: request.code ?? "", lifetime: lifetime)
        case .resetPassword:
            message = templates.resetPassword(to: request.to, name: request.name, code: request.code ?? "", lifetime: lifetime)
        case .alreadyRegistered:
            message = templates.alreadyRegistered(to: request.to, name: request.name, confirmed: request.confirmed ?? false)
        case .passwordChanged:
            message = templates.passwordChanged(to: request.to, name: request.name, reset: request.reset ?? false)
        case .test:
            message = MailMessage(
                kind: "test",
                to: request.to,
                subject: "Test message from \(templates.appName)",
                body: "This message was sent with `gatehouse mail test`: mail delivery works.\n"
            )
        }
        let text = RFC5322Message.render(message, from: from, date: date, messageID: "\(id)@gatehouse")
        return OutgoingMail(id: id, kind: request.kind.rawValue, sender: sender, recipient: request.to, data: Array(text.utf8), message: message)
    }
}

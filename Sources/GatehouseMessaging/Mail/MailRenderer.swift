import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Turns a ``MailRequest`` into the message a transport sends: subject, text and HTML parts from the
/// Mustache templates (``MailTemplateSet``), then a `multipart/alternative` MIME message whose headers
/// no value can break (``MailAddress``, ``MailHeaderEncoding``).
public struct MailRenderer: Sendable {
    let templates: MailTemplateSet
    let appName: String
    /// The `From:` mailbox (`GATEHOUSE_MAIL_FROM`).
    public let from: MailAddress
    /// The `Reply-To:` mailbox (`GATEHOUSE_MAIL_REPLY_TO`), if set.
    public let replyTo: MailAddress?

    /// The envelope sender: the bare address of ``from``.
    public var sender: String { from.address }

    /// A renderer.
    /// - Parameters:
    ///   - appName: The product name the messages use.
    ///   - from: `GATEHOUSE_MAIL_FROM`: `Name <address>` or a bare address.
    ///   - replyTo: `GATEHOUSE_MAIL_REPLY_TO`, if set (blank counts as unset).
    ///   - templatesDirectory: `GATEHOUSE_MAIL_TEMPLATES`: a directory whose `<kind>.<part>.mustache` files
    ///     replace the built-in templates of the same name.
    /// - Throws: ``DeliverySettingsError`` naming `GATEHOUSE_MAIL_FROM` or `GATEHOUSE_MAIL_REPLY_TO` for an
    ///   address that cannot be a header (a line break, no `@`, …), or `GATEHOUSE_MAIL_TEMPLATES` for a
    ///   directory that cannot be read, an unknown template file or a template that does not parse.
    public init(appName: String, from: String, replyTo: String? = nil, templatesDirectory: String? = nil) throws {
        do {
            self.from = try MailAddress(parsing: from)
        } catch {
            throw DeliverySettingsError(variable: "GATEHOUSE_MAIL_FROM", "not a usable address (`Name <address>` or `address`): \(error.reason)")
        }
        if let replyTo, !replyTo.trimmingCharacters(in: .whitespaces).isEmpty {
            do {
                self.replyTo = try MailAddress(parsing: replyTo)
            } catch {
                throw DeliverySettingsError(variable: "GATEHOUSE_MAIL_REPLY_TO", "not a usable address: \(error.reason)")
            }
        } else {
            self.replyTo = nil
        }
        self.appName = appName
        if let templatesDirectory, !templatesDirectory.isEmpty {
            templates = try MailTemplateSet(directory: templatesDirectory)
        } else {
            templates = .builtIn
        }
    }

    /// Renders a message.
    /// - Parameters:
    ///   - request: What to say, to whom.
    ///   - id: The queue's id (the `Message-ID`'s left part: letters, digits, `.`, `_`, `-`, `+`).
    ///   - date: The `Date:` header.
    /// - Returns: The message with its envelope; `message.body` is the text part, `message.html` the HTML part.
    /// - Throws: ``DeliveryError`` (permanent) when the recipient is not one plain address or the id
    ///   cannot be written in a header: retrying cannot help.
    package func render(_ request: MailRequest, id: String, date: Date) throws -> OutgoingMail {
        let recipient: MailAddress
        do {
            recipient = try MailAddress(address: request.to)
        } catch {
            throw DeliveryError(.permanent, "the recipient cannot be written in a header: \(error.reason)")
        }
        let rendered = templates.render(request.kind, context: MailTemplateSet.context(for: request, appName: appName, replyTo: replyTo?.address))
        let message = MailMessage(kind: request.kind.rawValue, to: request.to, subject: rendered.subject, body: rendered.text, html: rendered.html)
        let mime = MIMEMessage(
            from: from,
            to: recipient,
            replyTo: replyTo,
            subject: rendered.subject,
            text: rendered.text,
            html: rendered.html,
            date: date,
            id: id,
            kind: request.kind.rawValue
        )
        return OutgoingMail(id: id, kind: request.kind.rawValue, sender: sender, recipient: request.to, data: try mime.render(), message: message)
    }
}

import GatehouseAWS
import GatehouseCore
import GatehouseMessaging
import GatehouseSMTP

extension GatehouseConfiguration {
    /// Reads the mail settings: the transport (`GATEHOUSE_MAIL`), the sender and reply-to, the template
    /// directory, and how the queue retries and keeps messages.
    /// - Parameter reader: The environment.
    /// - Throws: ``ConfigurationError`` naming the variable at fault.
    mutating func readMail(_ reader: EnvironmentReader) throws {
        let mail = reader.string("GATEHOUSE_MAIL") ?? "outbox"
        do {
            self.mail = try Self.mailTransport(mail, reader: reader)
        } catch let error as DeliverySettingsError {
            throw ConfigurationError("\(error.variable): \(error.message)")
        }
        mailFrom = reader.string("GATEHOUSE_MAIL_FROM") ?? mailFrom
        mailReplyTo = reader.string("GATEHOUSE_MAIL_REPLY_TO")
        // Checked here too (the renderer checks again at start) so a bad address stops `serve` at once.
        for (variable, value) in [("GATEHOUSE_MAIL_FROM", mailFrom), ("GATEHOUSE_MAIL_REPLY_TO", mailReplyTo)] {
            guard let value else { continue }
            do {
                _ = try MailAddress(parsing: value)
            } catch {
                throw ConfigurationError("\(variable) must be an address or Name <address> on one line: \(error)")
            }
        }
        mailTemplates = reader.string("GATEHOUSE_MAIL_TEMPLATES")
        if let attempts = try reader.int("GATEHOUSE_MAIL_MAX_ATTEMPTS", in: 1...100) { messageDelivery.maxAttempts = attempts }
        if let base = try reader.seconds("GATEHOUSE_MAIL_RETRY_BASE", in: 1...86_400) { messageDelivery.retryBaseDelay = base }
        if let retention = try reader.seconds("GATEHOUSE_MAIL_RETENTION", in: 3600...(366 * 86_400)) { messageDelivery.retention = retention }
    }

    private static func mailTransport(_ value: String, reader: EnvironmentReader) throws -> MailTransportSettings {
        switch value.lowercased() {
        case "outbox":
            return .outbox
        case "ses":
            return .ses(try SESSettings(environment: reader.env))
        case let text where text.hasPrefix("smtp://") || text.hasPrefix("smtps://"):
            return .smtp(try SMTPSettings(url: value, caFile: reader.string("GATEHOUSE_SMTP_CA_FILE")))
        default:
            throw DeliverySettingsError(
                variable: "GATEHOUSE_MAIL",
                "must be outbox, ses, or an smtp:// or smtps:// URL (it starts with '\(value.prefix(while: { $0 != ":" }))')."
            )
        }
    }
}

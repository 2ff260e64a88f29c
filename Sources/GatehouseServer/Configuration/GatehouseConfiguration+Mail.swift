import GatehouseCore

extension GatehouseConfiguration {
    /// Reads the mail settings: the transport (`GATEHOUSE_MAIL`), the sender and reply-to, the template
    /// directory, and how the queue retries and keeps messages.
    /// - Parameter reader: The environment.
    /// - Throws: ``ConfigurationError`` naming the variable at fault.
    mutating func readMail(_ reader: EnvironmentReader) throws {
        let mail = reader.string("GATEHOUSE_MAIL") ?? "outbox"
        do {
            self.mail = try Self.mailTransport(mail, reader: reader)
        } catch let error as MailSettingsError {
            throw ConfigurationError("\(error.variable): \(error.message)")
        }
        mailFrom = reader.string("GATEHOUSE_MAIL_FROM") ?? mailFrom
        mailReplyTo = reader.string("GATEHOUSE_MAIL_REPLY_TO")
        mailTemplates = reader.string("GATEHOUSE_MAIL_TEMPLATES")
        if let attempts = try reader.int("GATEHOUSE_MAIL_MAX_ATTEMPTS", in: 1...100) { mailDelivery.maxAttempts = attempts }
        if let base = try reader.seconds("GATEHOUSE_MAIL_RETRY_BASE", in: 1...86_400) { mailDelivery.retryBaseDelay = base }
        if let retention = try reader.seconds("GATEHOUSE_MAIL_RETENTION", in: 3600...(366 * 86_400)) { mailDelivery.retention = retention }
    }

    private static func mailTransport(_ value: String, reader: EnvironmentReader) throws -> MailTransportSettings {
        switch value.lowercased() {
        case "outbox":
            return .outbox
        default:
            throw MailSettingsError(
                variable: "GATEHOUSE_MAIL",
                "must be outbox, ses, or an smtp:// or smtps:// URL (it starts with '\(value.prefix(while: { $0 != ":" }))')."
            )
        }
    }
}

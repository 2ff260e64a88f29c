import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseMessaging
import GatehouseSMTP
import Logging

/// Builds the configured mail transport and renderer.
enum MailTransports {
    /// The transport `GATEHOUSE_MAIL` names. Nothing is opened here; the outbox directory is created
    /// by the caller and network transports connect on first use.
    /// - Parameters:
    ///   - configuration: The server's configuration.
    ///   - upstream: The shared HTTP client (SES).
    ///   - logger: For the transport's lines.
    /// - Returns: The transport.
    static func make(_ configuration: GatehouseConfiguration, upstream: UpstreamHTTPClient, logger: Logger) -> any MailTransport {
        switch configuration.mail {
        case .outbox:
            return OutboxTransport(directory: configuration.outboxDirectory, logger: logger)
        case .smtp(let settings):
            return SMTPTransport(settings: settings, logger: logger)
        case .ses(let settings):
            return SESTransport(settings: settings, httpClient: { try upstream.client }, logger: logger)
        }
    }

    /// The renderer for the configured product name, sender, reply-to and templates.
    /// - Parameter configuration: The server's configuration.
    /// - Returns: The renderer.
    /// - Throws: ``ConfigurationError`` naming the variable when an address or a template is unusable.
    static func renderer(_ configuration: GatehouseConfiguration) throws -> MailRenderer {
        do {
            return try MailRenderer(
                appName: configuration.pool.appName,
                from: configuration.mailFrom,
                replyTo: configuration.mailReplyTo,
                templatesDirectory: configuration.mailTemplates
            )
        } catch let error as DeliverySettingsError {
            throw ConfigurationError("\(error.variable): \(error.message)")
        }
    }
}

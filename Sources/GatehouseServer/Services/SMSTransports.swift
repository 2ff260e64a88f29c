import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseMessaging
import Logging

/// Builds the configured SMS transport. Not wired into any flow yet: the phone sign-in flows will call it.
enum SMSTransports {
    /// The transport `GATEHOUSE_SMS` names. Nothing is opened here; the outbox directory is created by
    /// the caller (``SMSOutboxTransport/createDirectory()``) and SNS connects on first use.
    /// - Parameters:
    ///   - configuration: The server's configuration.
    ///   - upstream: The shared HTTP client (SNS).
    ///   - logger: For the transport's lines.
    /// - Returns: The transport.
    static func make(_ configuration: GatehouseConfiguration, upstream: UpstreamHTTPClient, logger: Logger) -> any SMSTransport {
        switch configuration.sms {
        case .outbox:
            return SMSOutboxTransport(directory: configuration.smsOutboxDirectory, logger: logger)
        case .sns(let settings):
            return SNSTransport(settings: settings, httpClient: { try upstream.client }, logger: logger)
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseMessaging
import Logging

/// `gatehouse mail test <address>`: renders a test message with the configured sender and templates and
/// sends it through the configured transport at once (not through the queue), reporting the outcome.
public enum MailTest {
    /// Sends the test message.
    /// - Parameters:
    ///   - address: The recipient.
    ///   - configuration: The server's configuration.
    ///   - logger: For the transport.
    /// - Returns: Lines for the operator.
    /// - Throws: ``ConfigurationError`` for unusable settings or address; ``DeliveryError`` when
    ///   the transport refuses or cannot be reached.
    public static func send(to address: String, configuration: GatehouseConfiguration, logger: Logger) async throws -> [String] {
        guard (try? EmailAddress(address)) != nil else { throw ConfigurationError("'\(address)' is not an email address.") }
        let renderer = try MailTransports.renderer(configuration)
        let upstream = UpstreamHTTPClient()
        let transport = MailTransports.make(configuration, upstream: upstream, logger: logger)
        let id = "test-\(UUID().uuidString.lowercased())"
        let mail: OutgoingMail
        do {
            if let outbox = transport as? OutboxTransport { try outbox.createDirectory() }
            mail = try renderer.render(MailRequest(kind: .test, to: address), id: id, date: Date())
        } catch {
            try? await upstream.shutdown()
            throw error
        }
        do {
            try await transport.send(mail)
        } catch {
            await transport.shutdown()
            try? await upstream.shutdown()
            throw error
        }
        await transport.shutdown()
        try? await upstream.shutdown()
        return ["Sent a test message to \(address) through \(transport.name) (Message-ID <\(id)@…>)."]
    }
}

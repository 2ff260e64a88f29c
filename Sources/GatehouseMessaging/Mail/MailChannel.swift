import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// The mail channel of the delivery queue: a queued ``MailRequest`` rendered from its template and
/// sent through the configured ``MailTransport`` (unless its recipient is an Apple relay address whose
/// forwarding is off: see ``RelayForwardingCheck``).
public struct MailChannel: TransportChannel {
    /// `mail`.
    public let name = "mail"
    let renderer: MailRenderer
    let transport: any MailTransport
    let relay: RelayForwardingCheck?

    /// The channel.
    /// - Parameters:
    ///   - renderer: Turns requests into messages.
    ///   - transport: Sends them.
    ///   - relay: Refuses (dead-letters) mail to an Apple relay address whose forwarding is off; `nil`
    ///     sends to every address.
    public init(renderer: MailRenderer, transport: any MailTransport, relay: RelayForwardingCheck? = nil) {
        self.renderer = renderer
        self.transport = transport
        self.relay = relay
    }

    /// The transport (its name and shutdown are the channel's).
    public var messageTransport: any MessageTransport { transport }

    /// Decodes the ``MailRequest``.
    /// - Parameters:
    ///   - plaintext: The request as JSON.
    ///   - id: The message's id (also its `Message-ID`'s left part).
    /// - Returns: The message; a code it carries is valid for the request's lifetime.
    /// - Throws: A decoding error.
    public func open(_ plaintext: Data, id: String) throws -> QueuedDelivery {
        let request = try JSONDecoder().decode(MailRequest.self, from: plaintext)
        let renderer = self.renderer
        let transport = self.transport
        let relay = self.relay
        return QueuedDelivery(codeLifetime: request.code == nil ? nil : request.lifetime.map(TimeInterval.init)) { date in
            if let reason = try await relay?.reasonNotToSend(to: request.to) { throw DeliveryError(.permanent, reason) }
            try await transport.send(try renderer.render(request, id: id, date: date))
        }
    }
}

import Foundation

/// A ``DeliveryChannel`` that sends every message through one ``MessageTransport`` (mail, SMS): the
/// channel's transport name and its shutdown are the transport's.
public protocol TransportChannel: DeliveryChannel {
    /// The transport the channel sends through.
    var messageTransport: any MessageTransport { get }
}

extension TransportChannel {
    /// The transport's name.
    public var transportName: String { messageTransport.name }

    /// Closes the transport.
    public func shutdown() async { await messageTransport.shutdown() }
}

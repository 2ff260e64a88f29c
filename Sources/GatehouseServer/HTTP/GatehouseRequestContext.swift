import GatehouseCore
import Hummingbird
import Logging
import NIOCore

/// Per-request state shared by middleware and routes.
public struct GatehouseRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer's IP address, if the channel has one.
    public let peerAddress: String?
    /// Set by ``RequestLoggingMiddleware``.
    public var requestID: String = ""
    /// The address rate limits use: the peer, or the forwarded client behind a trusted proxy.
    public var clientAddress: String = "unknown"

    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
    }

    public var client: ClientInfo { ClientInfo(address: clientAddress) }
}

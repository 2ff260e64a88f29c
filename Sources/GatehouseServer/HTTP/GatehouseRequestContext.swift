import GatehouseCore
import Hummingbird
import Logging
import NIOCore

/// Per-request state shared by middleware and routes.
public struct GatehouseRequestContext: RequestContext {
    public var coreContext: CoreRequestContextStorage
    /// The TCP peer's IP address, if the channel has one.
    public let peerAddress: String?
    /// The request's origin, for rate limits, session lists and the audit log: set once by
    /// ``RequestContextMiddleware`` (address, `User-Agent` and request id), then only read.
    public var client: ClientInfo = ClientInfo(address: "unknown")
    /// The address rate limits use: the peer, or the forwarded client behind a trusted proxy.
    public var clientAddress: String { client.address }
    /// The request's `User-Agent` header (cut to ``ClientInfo/maximumUserAgentLength``).
    public var userAgent: String? { client.userAgent }
    /// The verified caller, set by ``BearerAuthenticator`` on protected routes only (whose handlers
    /// read it, non-optional, from ``AuthenticatedRequestContext``).
    var principal: Principal?

    /// - Parameter source: The channel the request came in on.
    public init(source: ApplicationRequestContextSource) {
        self.coreContext = .init(source: source)
        self.peerAddress = source.channel.remoteAddress?.ipAddress
    }
}

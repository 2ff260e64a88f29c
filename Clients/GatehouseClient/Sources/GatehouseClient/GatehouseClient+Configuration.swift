import Foundation

extension GatehouseClient {
    /// Where the server is and how early to refresh.
    public struct Configuration: Sendable {
        /// The server's base URL, e.g. `https://auth.example.com`.
        public var baseURL: URL
        /// Refresh when the access token has less than this many seconds left.
        public var refreshLeeway: TimeInterval

        /// A configuration for the server at `baseURL`.
        ///
        /// - Parameters:
        ///   - baseURL: The server's base URL, e.g. `https://auth.example.com`.
        ///   - refreshLeeway: Seconds before the access token's expiry at which it is refreshed.
        public init(baseURL: URL, refreshLeeway: TimeInterval = 60) {
            self.baseURL = baseURL
            self.refreshLeeway = refreshLeeway
        }
    }
}

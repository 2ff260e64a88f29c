import Foundation

extension GatehouseClient {
    /// Where the server is, which app client this is, how early to refresh, how long to wait out a busy
    /// server, and where to log.
    public struct Configuration: Sendable {
        /// The server's base URL, e.g. `https://auth.example.com`.
        public var baseURL: URL
        /// The app client id (the `aud` of the ID tokens), when known; with ``baseURL`` it names the stored
        /// session (``storeKey``), so staging and production sessions never mix.
        public var clientID: String?
        /// Refresh when the access token has less than this many seconds left.
        public var refreshLeeway: TimeInterval
        /// The longest `Retry-After` (seconds) the client waits out by itself after a 429 or 503; a longer one
        /// is returned (thrown as `tooManyRequests` / `unavailable`) at once. `0` turns the retries off.
        public var maxRetryAfter: TimeInterval
        /// How many times one request is retried after a 429 or 503.
        public var maxRetries: Int
        /// Called with a line for each request, refresh and store failure; never with tokens, codes,
        /// passwords or bodies. `nil` (the default) logs nothing.
        public var logger: (@Sendable (LogEntry) -> Void)?

        /// A configuration for the server at `baseURL`.
        ///
        /// - Parameters:
        ///   - baseURL: The server's base URL, e.g. `https://auth.example.com`.
        ///   - clientID: The app client id, to key the stored session by server and client.
        ///   - refreshLeeway: Seconds before the access token's expiry at which it is refreshed.
        ///   - maxRetryAfter: The longest `Retry-After` waited out after a 429 or 503 (5 s by default).
        ///   - maxRetries: How many retries one request gets after a 429 or 503 (2 by default).
        ///   - logger: Where log lines go; `nil` for none.
        public init(
            baseURL: URL,
            clientID: String? = nil,
            refreshLeeway: TimeInterval = 60,
            maxRetryAfter: TimeInterval = 5,
            maxRetries: Int = 2,
            logger: (@Sendable (LogEntry) -> Void)? = nil
        ) {
            self.baseURL = baseURL
            self.clientID = clientID
            self.refreshLeeway = refreshLeeway
            self.maxRetryAfter = maxRetryAfter
            self.maxRetries = maxRetries
            self.logger = logger
        }

        /// A name for the stored session unique to this server and client, e.g.
        /// `gatehouse:https://auth.example.com|app-client-id`: the default Keychain account and file name.
        public var storeKey: String {
            var url = baseURL.absoluteString
            while url.hasSuffix("/") { url.removeLast() }
            return "gatehouse:\(url.lowercased())|\(clientID ?? "")"
        }
    }

    /// Which token ``GatehouseClient/send(_:token:)`` attaches.
    public enum BearerToken: Sendable, Equatable {
        /// The access token (the default; what Gatehouse's own protected API takes).
        case access
        /// The ID token, for backends that verify ID tokens (the seeds' FastAPI servers).
        case id
    }

    /// One log line from the client: no secrets, ever.
    public struct LogEntry: Sendable, Equatable {
        /// How much it matters.
        public enum Level: String, Sendable, Equatable {
            /// Routine: a request and its status.
            case debug
            /// Worth knowing: a refresh, a retry after 429/503.
            case info
            /// Something failed: a store write, an ended session.
            case warning
        }

        /// How much it matters.
        public var level: Level
        /// The line, e.g. `POST /auth/refresh -> 200 (request 7f3a…)`.
        public var message: String
    }
}

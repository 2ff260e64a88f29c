import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The one HTTP client for calls to Apple, Google (and Cognito): bounded timeouts, no redirects,
/// response bodies capped. Created on first use (an app that never calls out never opens one) and
/// shut down with the app.
public final class UpstreamHTTPClient: Sendable {
    private let state = LockedBox<(client: HTTPClient?, closed: Bool)>((nil, false))
    static let maxResponseBytes = 1 << 20

    public init() {}

    var client: HTTPClient {
        get throws {
            try state.withLock { state in
                if state.closed { throw GatehouseError.upstreamUnavailable(cause: "the server is shutting down") }
                if let client = state.client { return client }
                var configuration = HTTPClient.Configuration()
                configuration.timeout = .init(connect: .seconds(5), read: .seconds(10))
                configuration.redirectConfiguration = .disallow
                let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
                state.client = client
                return client
            }
        }
    }

    public func shutdown() async throws {
        let client = state.withLock { state -> HTTPClient? in
            state.closed = true
            defer { state.client = nil }
            return state.client
        }
        try await client?.shutdown()
    }

    /// Sends a request and collects the body (capped).
    public func send(
        _ request: HTTPClientRequest,
        timeout: TimeAmount = .seconds(15)
    ) async throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        let response = try await client.execute(request, timeout: timeout)
        let body = try await response.body.collect(upTo: Self.maxResponseBytes)
        return (Int(response.status.code), response.headers, Array(buffer: body))
    }

    /// `max-age` from a `Cache-Control` header.
    static func maxAge(_ headers: HTTPHeaders) -> TimeInterval? {
        for value in headers["Cache-Control"] {
            for directive in value.split(separator: ",") {
                let parts = directive.trimmingCharacters(in: .whitespaces).split(separator: "=", maxSplits: 1)
                if parts.count == 2, parts[0].lowercased() == "max-age", let seconds = Int(parts[1]) { return TimeInterval(seconds) }
            }
        }
        return nil
    }

    static func formBody(_ fields: [(String, String)]) -> String {
        var allowed = CharacterSet.alphanumerics
        allowed.insert(charactersIn: "-._~")
        return fields.map { "\($0.0)=\($0.1.addingPercentEncoding(withAllowedCharacters: allowed) ?? "")" }.joined(separator: "&")
    }
}

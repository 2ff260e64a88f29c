import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1

extension UpstreamHTTPClient {
    /// Sends a request to `address` (already checked) while naming, verifying and addressing `host` as
    /// usual (TLS SNI and certificate, `Host`): a short-lived client whose only DNS answer is that
    /// address, so no second lookup can take the connection elsewhere. No redirects; the body is capped.
    /// - Parameters:
    ///   - request: The request (its URL names `host`).
    ///   - host: The URL's host.
    ///   - address: The numeric address to connect to.
    ///   - timeout: The whole exchange's limit (connect included).
    /// - Returns: The status, headers and capped body.
    /// - Throws: The client's error (a timeout, a refused connection, a TLS failure).
    func send(
        _ request: HTTPClientRequest,
        pinning host: String,
        to address: String,
        timeout: TimeAmount
    ) async throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        var configuration = HTTPClient.Configuration()
        configuration.timeout = .init(connect: timeout, read: timeout)
        configuration.redirectConfiguration = .disallow
        configuration.dnsOverride = [host: address]
        configuration.connectionPool = .init(idleTimeout: .seconds(1))
        let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
        do {
            let response = try await client.execute(request, timeout: timeout)
            let body = try await response.body.collect(upTo: Self.maxResponseBytes)
            try? await client.shutdown()
            return (Int(response.status.code), response.headers, Array(buffer: body))
        } catch {
            try? await client.shutdown()
            throw error
        }
    }
}

import AsyncHTTPClient
import Foundation
import GatehouseCore

/// Fetches JWKS documents over HTTP(S).
struct HTTPJWKSSource: JWKSSource {
    let upstream: UpstreamHTTPClient

    func fetchJWKS(from url: String) async throws -> (body: [UInt8], maxAge: TimeInterval?) {
        var request = HTTPClientRequest(url: url)
        request.headers.add(name: "Accept", value: "application/json")
        let response = try await upstream.send(request)
        guard response.status == 200 else { throw GatehouseError.upstreamUnavailable(cause: "JWKS answered HTTP \(response.status)") }
        return (response.body, UpstreamHTTPClient.maxAge(response.headers))
    }
}

import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import NIOCore
import NIOHTTP1

/// Google's token endpoint for the hosted UI's redirect sign-in, authenticated with the web client's
/// secret in the form (`client_secret_post`, which Google accepts).
struct HTTPGoogleTokenAPI: GoogleCodeExchange {
    let upstream: UpstreamHTTPClient
    let tokenURL: String
    let clientID: String
    let clientSecret: String

    func exchange(code: String, redirectURI: String) async throws -> String {
        var request = HTTPClientRequest(url: tokenURL)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(
            ByteBuffer(
                string: UpstreamHTTPClient.formBody([
                    ("grant_type", "authorization_code"), ("code", code), ("redirect_uri", redirectURI), ("client_id", clientID),
                    ("client_secret", clientSecret),
                ])
            )
        )
        let response: (status: Int, headers: HTTPHeaders, body: [UInt8])
        do {
            response = try await upstream.send(request)
        } catch let error as GatehouseError {
            throw error
        } catch {
            throw GatehouseError.upstreamUnavailable(cause: "Google token endpoint: \(error)")
        }
        let json = try? StrictJSONParser().parse(response.body)
        guard response.status == 200 else {
            var error = "-"
            if case .object(let object)? = json, let code = object["error"]?.stringValue { error = String(code.prefix(64)) }
            if response.status >= 500 { throw GatehouseError.upstreamUnavailable(cause: "Google token endpoint answered HTTP \(response.status)") }
            throw GatehouseError.invalidToken(cause: "Google refused the authorization code: HTTP \(response.status) \(error)")
        }
        guard case .object(let object)? = json, let idToken = object["id_token"]?.stringValue, !idToken.isEmpty else {
            throw GatehouseError.invalidToken(cause: "Google's token answer carried no id_token")
        }
        return idToken
    }
}

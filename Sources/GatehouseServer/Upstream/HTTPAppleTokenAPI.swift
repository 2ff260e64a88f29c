import AsyncHTTPClient
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import NIOCore
import NIOHTTP1

/// Apple's `/auth/token` and `/auth/revoke`, authenticated with the ES256 client secret.
struct HTTPAppleTokenAPI: AppleTokenAPI {
    let upstream: UpstreamHTTPClient
    let baseURL: String
    let credentials: AppleCredentials
    let clock: any TimeSource

    func exchange(code: String, clientID: String, redirectURI: String?) async throws -> AppleTokenGrant {
        var fields = [
            ("client_id", clientID), ("client_secret", try credentials.clientSecret(clientID: clientID, now: clock.now())),
            ("code", code), ("grant_type", "authorization_code"),
        ]
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        let response = try await post("/auth/token", fields)
        guard response.status == 200 else {
            throw GatehouseError.internalError(cause: "Apple /auth/token answered HTTP \(response.status): \(Self.appleError(response.body))")
        }
        guard case .object(let json) = try StrictJSONParser().parse(response.body) else {
            throw GatehouseError.internalError(cause: "Apple /auth/token answered something that is not a JSON object")
        }
        return AppleTokenGrant(refreshToken: json["refresh_token"]?.stringValue, idToken: json["id_token"]?.stringValue)
    }

    func revoke(refreshToken: String, clientID: String) async throws {
        let response = try await post(
            "/auth/revoke",
            [
                ("client_id", clientID), ("client_secret", try credentials.clientSecret(clientID: clientID, now: clock.now())),
                ("token", refreshToken), ("token_type_hint", "refresh_token"),
            ]
        )
        guard response.status == 200 else {
            throw GatehouseError.upstreamUnavailable(cause: "Apple /auth/revoke answered HTTP \(response.status): \(Self.appleError(response.body))")
        }
    }

    private func post(_ path: String, _ fields: [(String, String)]) async throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
        var request = HTTPClientRequest(url: baseURL + path)
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-www-form-urlencoded")
        request.headers.add(name: "Accept", value: "application/json")
        request.body = .bytes(ByteBuffer(string: UpstreamHTTPClient.formBody(fields)))
        do {
            return try await upstream.send(request)
        } catch let error as GatehouseError {
            throw error
        } catch {
            throw GatehouseError.upstreamUnavailable(cause: "Apple \(path): \(error)")
        }
    }

    /// Apple's `{"error": "invalid_grant"}` code, never the request's secrets.
    static func appleError(_ body: [UInt8]) -> String {
        guard case .object(let json)? = try? StrictJSONParser().parse(body), let error = json["error"]?.stringValue else { return "-" }
        return String(error.prefix(64))
    }
}

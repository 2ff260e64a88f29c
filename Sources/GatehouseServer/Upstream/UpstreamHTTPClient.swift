import AsyncHTTPClient
import Foundation
import GatehouseCore
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// The one HTTP client for calls to Apple, Google (and Cognito): bounded timeouts, no redirects,
/// response bodies capped. Created on first use (an app that never calls out never opens one) and
/// shut down with the app.
public final class UpstreamHTTPClient: Sendable {
    private let state = Mutex<(client: HTTPClient?, closed: Bool)>((nil, false))
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
    public func send(_ request: HTTPClientRequest, timeout: TimeAmount = .seconds(15)) async throws -> (status: Int, headers: HTTPHeaders, body: [UInt8]) {
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

/// Shuts the upstream client down when the service group stops.
struct UpstreamHTTPClientService: Service {
    let upstream: UpstreamHTTPClient

    func run() async throws {
        try? await gracefulShutdown()
        try await upstream.shutdown()
    }
}

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

/// Apple's `/auth/token` and `/auth/revoke`, authenticated with the ES256 client secret.
struct HTTPAppleTokenAPI: AppleTokenAPI {
    let upstream: UpstreamHTTPClient
    let baseURL: String
    let credentials: AppleCredentials
    let clock: any TimeSource

    func exchange(code: String, clientID: String, redirectURI: String?) async throws -> String? {
        var fields = [("client_id", clientID), ("client_secret", try credentials.clientSecret(clientID: clientID, now: clock.now())),
                      ("code", code), ("grant_type", "authorization_code")]
        if let redirectURI { fields.append(("redirect_uri", redirectURI)) }
        let response = try await post("/auth/token", fields)
        guard response.status == 200 else {
            throw GatehouseError.internalError(cause: "Apple /auth/token answered HTTP \(response.status): \(Self.appleError(response.body))")
        }
        guard case .object(let json) = try StrictJSONParser().parse(response.body) else {
            throw GatehouseError.internalError(cause: "Apple /auth/token answered something that is not a JSON object")
        }
        return json["refresh_token"]?.stringValue
    }

    func revoke(refreshToken: String, clientID: String) async throws {
        let response = try await post("/auth/revoke", [
            ("client_id", clientID), ("client_secret", try credentials.clientSecret(clientID: clientID, now: clock.now())),
            ("token", refreshToken), ("token_type_hint", "refresh_token"),
        ])
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

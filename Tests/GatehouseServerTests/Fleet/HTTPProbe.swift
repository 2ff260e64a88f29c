import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A plain HTTP client over URLSession for tests that talk to real processes (the fleet behind nginx):
/// one connection per concurrent request, nothing of the server's own code.
struct HTTPProbe: Sendable {
    /// One answer: status, headers (lower-cased names) and body; `status == 0` when no answer came.
    struct Reply: Sendable {
        let status: Int
        let headers: [String: String]
        let body: Data
        let seconds: TimeInterval

        /// The body as a JSON object (empty when it is not one).
        var json: [String: Any] { ((try? JSONSerialization.jsonObject(with: body)) as? [String: Any]) ?? [:] }
        func string(_ key: String) -> String? { json[key] as? String }
        /// The contract's `error.code`.
        var errorCode: String? { (json["error"] as? [String: Any])?["code"] as? String }
        /// The instance nginx passed the request to (`X-Upstream`).
        var upstream: String? { headers["x-upstream"] }
    }

    let session: URLSession

    init(timeout: TimeInterval = 30) {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = timeout
        configuration.httpMaximumConnectionsPerHost = 64
        configuration.httpShouldSetCookies = false
        session = URLSession(configuration: configuration)
    }

    /// Sends one request (`client`: the address it comes from, for a balancer that appends to
    /// `X-Forwarded-For`); a transport failure (refused, reset, timed out) is a reply with status 0.
    func send(_ method: String, _ url: String, json: [String: String]? = nil, bearer: String? = nil, client: String? = nil) async -> Reply {
        var request = URLRequest(url: URL(string: url)!)
        request.httpMethod = method
        if let json {
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
            request.httpBody = try? JSONSerialization.data(withJSONObject: json)
        }
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        if let client { request.setValue(client, forHTTPHeaderField: "X-Forwarded-For") }
        let started = Date()
        do {
            let (data, response) = try await session.data(for: request)
            let http = response as? HTTPURLResponse
            var headers: [String: String] = [:]
            for (name, value) in http?.allHeaderFields ?? [:] {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            return Reply(status: http?.statusCode ?? 0, headers: headers, body: data, seconds: Date().timeIntervalSince(started))
        } catch {
            return Reply(status: 0, headers: [:], body: Data("\(error)".utf8), seconds: Date().timeIntervalSince(started))
        }
    }
}

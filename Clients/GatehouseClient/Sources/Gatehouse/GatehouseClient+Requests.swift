import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The HTTP plumbing: building requests to the contract's paths, sending them, and reading the answers.
extension GatehouseClient {
    struct DeliveryEnvelope: Decodable { var codeDelivery: CodeDelivery }

    func authorized(_ method: String, _ path: String, body: [String: String]?) async throws -> Data {
        try await authorized(method, path, rawBody: try body.map { try JSONSerialization.data(withJSONObject: $0) })
    }

    func authorized(_ method: String, _ path: String, rawBody: Data?) async throws -> Data {
        let (data, response) = try await send(request(method, path, rawBody))
        return try checked(data, response)
    }

    func call(_ method: String, _ path: String, body: [String: String]?) async throws -> Data {
        try await call(method, path, rawBody: try body.map { try JSONSerialization.data(withJSONObject: $0) })
    }

    func call(_ method: String, _ path: String, rawBody: Data?) async throws -> Data {
        let (data, response) = try await transmit(request(method, path, rawBody))
        return try checked(data, response)
    }

    private func request(_ method: String, _ path: String, _ body: Data?) -> URLRequest {
        var request = URLRequest(url: configuration.baseURL.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        request.setValue(SDKUserAgent.value, forHTTPHeaderField: "User-Agent")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    /// Sends one request: honours task cancellation, keeps `URLError` codes, waits out a 429 or 503 whose
    /// `Retry-After` is within ``Configuration/maxRetryAfter`` (at most ``Configuration/maxRetries`` times),
    /// and logs the method, path and status (never a header or a body).
    func transmit(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        var attempt = 0
        while true {
            let (data, response) = try await transmitOnce(request)
            guard [429, 503].contains(response.statusCode), attempt < configuration.maxRetries,
                let wait = response.value(forHTTPHeaderField: "Retry-After").flatMap(TimeInterval.init), wait >= 0,
                wait <= configuration.maxRetryAfter
            else { return (data, response) }
            attempt += 1
            log(.info, "\(request.httpMethod ?? "GET") \(request.url?.path ?? "") -> \(response.statusCode); retrying in \(wait) s")
            do {
                try await sleep(wait)
            } catch {
                throw GatehouseError.transport(URLError(.cancelled))
            }
        }
    }

    private func transmitOnce(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        let line = "\(request.httpMethod ?? "GET") \(request.url?.path ?? "")"
        do {
            try Task.checkCancellation()
            let (data, response) = try await transport.send(request)
            try Task.checkCancellation()
            let id = response.value(forHTTPHeaderField: "X-Request-Id").map { " (request \($0))" } ?? ""
            log(.debug, "\(line) -> \(response.statusCode)\(id)")
            return (data, response)
        } catch let error as GatehouseError {
            throw error
        } catch is CancellationError {
            throw GatehouseError.transport(URLError(.cancelled))
        } catch let error as URLError {
            log(.info, "\(line) failed: URLError \(error.code.rawValue)")
            throw GatehouseError.transport(error)
        } catch {
            log(.info, "\(line) failed: \(type(of: error))")
            throw GatehouseError.transport(URLError(.unknown, userInfo: [NSLocalizedDescriptionKey: String(describing: error)]))
        }
    }

    func log(_ level: LogEntry.Level, _ message: @autoclosure () -> String) {
        configuration.logger?(LogEntry(level: level, message: message()))
    }

    private func checked(_ data: Data, _ response: HTTPURLResponse) throws -> Data {
        if (200..<300).contains(response.statusCode) { return data }
        throw GatehouseError.server(ServerError.decode(data, response))
    }

    func decode<T: Decodable>(_ type: T.Type, _ data: Data) throws -> T {
        do {
            return try Self.decoder.decode(type, from: data)
        } catch {
            throw GatehouseError.invalidResponse("\(T.self): \(error)")
        }
    }

    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .convertFromSnakeCase
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = RFC3339.parse(text) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "not an RFC 3339 timestamp: \(text)")
            }
            return date
        }
        return decoder
    }()
}

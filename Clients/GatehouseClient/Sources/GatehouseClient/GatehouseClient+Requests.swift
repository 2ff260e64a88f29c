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
        let (data, response) = try await transmit(request(method, path, try body.map { try JSONSerialization.data(withJSONObject: $0) }))
        return try checked(data, response)
    }

    private func request(_ method: String, _ path: String, _ body: Data?) -> URLRequest {
        var request = URLRequest(url: configuration.baseURL.appendingPathComponent(String(path.dropFirst())))
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return request
    }

    func transmit(_ request: URLRequest) async throws -> (Data, HTTPURLResponse) {
        do {
            return try await transport.send(request)
        } catch let error as GatehouseError {
            throw error
        } catch {
            throw GatehouseError.transport(error.localizedDescription)
        }
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

import Crypto
import Foundation
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import Logging
import NIOCore

/// A claims hook's receiver on an ephemeral loopback port: it checks each request's Standard Webhooks
/// signature (the specification's algorithm, written here apart from the server's), records it, and
/// answers as told.
final class ClaimsHookReceiver: Sendable {
    enum Answer: Sendable {
        case json(JSONValue)
        case raw(Int, String)
        case hang(Duration)
    }

    struct Received: Sendable {
        let body: JSONValue?
        let signatureValid: Bool
        let id: String
        let timestamp: Int64
    }

    static let secret = "whsec_" + Data("claims-hook-secret-0123456789".utf8).base64EncodedString()
    let port: Int
    private let answer = LockedBox<Answer>(.json(["claims": [:]]))
    private let received = LockedBox<[Received]>([])

    init(port: Int) { self.port = port }

    var url: String { "http://127.0.0.1:\(port)/hook" }
    var requests: [Received] { received.withLock { $0 } }
    func answer(_ value: Answer) { answer.withLock { $0 = value } }

    /// The specification's check: HMAC-SHA256 under the base64-decoded secret over `id.timestamp.body`,
    /// compared with each `v1,` signature in the header.
    static func verify(id: String, timestamp: String, body: [UInt8], header: String) -> Bool {
        let key = SymmetricKey(data: Data(base64Encoded: String(secret.dropFirst("whsec_".count)))!)
        let expected = Data(HMAC<SHA256>.authenticationCode(for: Data("\(id).\(timestamp).".utf8) + Data(body), using: key)).base64EncodedString()
        return header.split(separator: " ").contains { $0 == "v1," + expected }
    }

    func handle(_ request: Request) async throws -> Response {
        var request = request
        let body = Array(buffer: try await request.collectBody(upTo: 1 << 20))
        let id = request.headers[HTTPField.Name("webhook-id")!] ?? ""
        let timestamp = request.headers[HTTPField.Name("webhook-timestamp")!] ?? ""
        let signature = request.headers[HTTPField.Name("webhook-signature")!] ?? ""
        received.withLock {
            $0.append(
                Received(
                    body: try? StrictJSONParser().parse(body),
                    signatureValid: Self.verify(id: id, timestamp: timestamp, body: body, header: signature),
                    id: id,
                    timestamp: Int64(timestamp) ?? 0
                )
            )
        }
        switch answer.withLock({ $0 }) {
        case .json(let value):
            return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: value.serialized())))
        case .raw(let status, let text):
            return Response(status: .init(code: status), body: .init(byteBuffer: ByteBuffer(string: text)))
        case .hang(let duration):
            try await Task.sleep(for: duration)
            return Response(status: .ok, body: .init(byteBuffer: ByteBuffer(string: #"{"claims":{"late":true}}"#)))
        }
    }

    /// Starts a receiver, runs `body`, and stops it.
    static func run<T: Sendable>(_ body: @escaping @Sendable (ClaimsHookReceiver) async throws -> T) async throws -> T {
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let holder = LockedBox<ClaimsHookReceiver?>(nil)
        let router = Router()
        router.post("/hook") { request, _ in
            guard let receiver = holder.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable) }
            return try await receiver.handle(request)
        }
        var logger = Logger(label: "claims-hook-receiver")
        logger.logLevel = .critical
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await app.runService(gracefulShutdownSignals: []) }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw HTTPError(.internalServerError) }
            let receiver = ClaimsHookReceiver(port: port)
            holder.withLock { $0 = receiver }
            defer { tasks.cancelAll() }
            return try await body(receiver)
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting

/// `Tests/webhooks/receiver.py` on an ephemeral loopback port: it verifies every delivery with the
/// Standard Webhooks reference library (`standardwebhooks`) and logs what it got.
struct WebhookReceiver: Sendable {
    /// One delivery as the receiver saw it.
    struct Delivery: Sendable {
        let path: String
        let id: String
        let timestamp: String
        let signature: String
        let body: String
        let verified: Bool
        let error: String?
        /// The status the receiver answered (`nil` for `/hang/`, which answers late).
        let status: Int?
        var payload: [String: JSONValue] { (try? StrictJSONParser().parse(Array(body.utf8)))?.objectValue ?? [:] }
        var type: String { payload["type"]?.stringValue ?? "" }
        var data: [String: JSONValue] { payload["data"]?.objectValue ?? [:] }
    }

    let server: PythonServer
    let url: String
    let directory: URL

    init() throws {
        server = try PythonServer(repositoryScript: "Tests/webhooks/receiver.py")
        url = try server.string("url")
        directory = URL(fileURLWithPath: try server.string("dir"))
    }

    /// Makes `/refuse/` answer 503 (`true`) or as `/ok/` (`false`).
    func refuse(_ on: Bool) throws {
        let flag = directory.appendingPathComponent("refuse")
        if on { try Data().write(to: flag) } else { try FileManager.default.removeItem(at: flag) }
    }

    /// Tells the receiver the endpoint's secret.
    func use(secret: String) throws {
        try Data(secret.utf8).write(to: directory.appendingPathComponent("secret"))
    }

    /// Every delivery so far, in arrival order.
    func deliveries() throws -> [Delivery] {
        guard let text = try? String(contentsOf: directory.appendingPathComponent("log.jsonl"), encoding: .utf8) else { return [] }
        return try text.split(separator: "\n").map { line in
            let object = try StrictJSONParser().parse(Array(line.utf8)).objectValue ?? [:]
            return Delivery(
                path: object["path"]?.stringValue ?? "",
                id: object["id"]?.stringValue ?? "",
                timestamp: object["timestamp"]?.stringValue ?? "",
                signature: object["signature"]?.stringValue ?? "",
                body: object["body"]?.stringValue ?? "",
                verified: object["verified"] == .bool(true),
                error: object["error"]?.stringValue,
                status: object["status"]?.int64Value.map(Int.init)
            )
        }
    }

    /// Stops the server.
    func stop() {
        server.process.terminate()
        try? FileManager.default.removeItem(at: directory)
    }
}

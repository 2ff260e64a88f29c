import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Broken HTTP framing is the client's fault: a bad chunk size, a chunk that does not match its
/// length, `Transfer-Encoding: gzip`, or a client that goes away mid-body answers 400 or closes the
/// connection, is logged below `error`, and is never counted as a server failure (the review saw
/// `500 internal_error` logged at `error` on every route tried).
@Suite("Routes: malformed HTTP framing is the client's error", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct MalformedFramingTests {
    struct Outcome: Sendable {
        var name: String
        var status: Int?
        var body: String
    }

    static func send(port: Int, _ path: String, contentType: String) async throws -> [Outcome]? {
        guard
            let result = try await PythonScript.run(
                "malformed_framing.py",
                arguments: [String(port), path, contentType],
                requiring: "socket"
            )
        else { return nil }
        return try result.output.split(separator: "\n").map { line in
            let object = try #require(try StrictJSONParser().parse(Array(line.utf8)).objectValue, "\(result.output)")
            return Outcome(
                name: object["case"]?.stringValue ?? "?",
                status: object["status"]?.int64Value.map(Int.init),
                body: object["body"]?.stringValue ?? ""
            )
        }
    }

    @Test func everyFramingErrorIs400OrAClosedConnectionAndNeverA500() async throws {
        let capture = LogCapture()
        let app = try await TestApp.make(logger: capture.logger(level: .trace))
        try await app.live { client in
            let port = try #require(client.port)
            let routes = [
                ("/auth/signin", "application/json"), ("/auth/signup", "application/json"),
                ("/auth/apple/callback", "application/x-www-form-urlencoded"),
            ]
            for (path, type) in routes {
                guard let outcomes = try await Self.send(port: port, path, contentType: type) else { return }
                #expect(outcomes.count == 5, "\(outcomes)")
                for outcome in outcomes {
                    #expect(outcome.status == nil || outcome.status == 400, "\(path) \(outcome.name): \(outcome.status ?? 0) \(outcome.body)")
                    #expect(!outcome.body.contains("internal_error"), "\(path) \(outcome.name): \(outcome.body)")
                }
            }
            try await Task.sleep(for: .milliseconds(300))  // the server notices the last disconnect
            let metrics = try await client.send(.get, "/metrics")
            let serverFailures = metrics.bodyText.split(separator: "\n").filter {
                $0.hasPrefix("gatehouse_http_requests_total") && $0.contains("status=\"5")
            }
            #expect(serverFailures.isEmpty, "\(serverFailures)")
        }
        let errors = capture.allLines.filter { $0.hasPrefix("error ") || $0.hasPrefix("critical ") }
        #expect(errors.isEmpty, "\(errors)")
        #expect(!capture.text.contains("internal_error"), "a framing error was logged as a server failure")
    }
}

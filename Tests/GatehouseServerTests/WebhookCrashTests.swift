import Foundation
import GatehouseMessaging
import GatehouseTesting
import Testing

/// Webhook events queued before a `kill -9` are all delivered after the restart, each signed
/// (verified by the Standard Webhooks reference library) and with the `webhook-id` it had before the
/// crash: at-least-once, nothing lost.
@Suite("Webhooks: nothing lost across a crash", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct WebhookCrashTests {
    /// Runs the real binary's CLI to its end on a thread of its own (never on one of Swift
    /// concurrency's threads).
    static func cli(_ arguments: [String], environment: [String: String]) async throws -> (status: Int32, output: String) {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try ChildProcess.run(arguments, environment: environment) }) }
        }
    }

    @Test func eventsQueuedBeforeKillNineAreDeliveredAfterTheRestartWithTheirIDs() async throws {
        guard let binary = ServerProcess.requireBinary() else { return }
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        try receiver.refuse(true)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gh-webhook-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        let environment = [
            "GATEHOUSE_MAIL_RETRY_BASE": "1", "GATEHOUSE_SCRYPT_LOG_N": "10", "GATEHOUSE_WEBHOOK_ALLOW_PRIVATE": "true",
            "GATEHOUSE_WEBHOOK_TIMEOUT": "10",
        ]

        let first = try await ServerProcess(binary: binary, dataDirectory: data, environment: environment, name: "first")
        var cliEnvironment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix("GATEHOUSE_") }
        cliEnvironment.merge(environment) { $1 }
        cliEnvironment["GATEHOUSE_LOG_LEVEL"] = "warning"
        let added = try await Self.cli(
            [
                binary.path, "webhooks", "add", receiver.url + "/refuse/hooks", "--events", "user.created,user.confirmed,user.signed_in",
                "--data-dir", data.path, "--env-file", "/nonexistent",
            ],
            environment: cliEnvironment
        )
        #expect(added.status == 0, "\(added.output)")
        let secret = try #require(added.output.split(whereSeparator: \.isWhitespace).first { $0.hasPrefix("whsec_") }, "\(added.output)")
        try receiver.use(secret: String(secret))

        // Four events: created, confirmed, and two sign-ins. The receiver refuses them all.
        let account = ["email": "crash-hooks@example.com", "password": "correct horse 9"]
        #expect(try await first.post("/auth/signup", account) == 201)
        let outbox = data.appendingPathComponent("outbox")
        try await MailCrashTests.waitFor(seconds: 120) {
            ((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).contains { $0.hasSuffix("confirm_signup.eml") }
        }
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: outbox.path).first { $0.hasSuffix("confirm_signup.eml") })
        let text = try String(contentsOf: outbox.appendingPathComponent(file), encoding: .utf8)
        let code = try #require(CapturingMailer.code(in: text.replacingOccurrences(of: "\r\n", with: "\n")))
        #expect(try await first.post("/auth/confirm", ["email": account["email"]!, "code": code]) == 200)
        #expect(try await first.post("/auth/signin", account) == 200)
        #expect(try await first.post("/auth/signin", account) == 200)

        // Every event was tried and refused at least once (so each is certainly queued, and signed
        // with its id), then the server dies with all four undelivered.
        try await MailCrashTests.waitFor(seconds: 120) { (try? Set(receiver.deliveries().map(\.id)).count) == 4 }
        first.kill()
        let refused = try receiver.deliveries()
        #expect(refused.allSatisfy { $0.status == 503 && $0.verified }, "refused, though signed right: \(refused.map(\.error))")
        let bodies = Dictionary(refused.map { ($0.id, $0.body) }) { first, _ in first }
        #expect(bodies.count == 4 && bodies.keys.allSatisfy { $0.hasPrefix("msg_") })

        try receiver.refuse(false)
        let second = try await ServerProcess(binary: binary, dataDirectory: data, environment: environment, name: "second")
        defer { second.kill() }
        // Bounds a failure only: a message leased by the killed server waits out its 300 s lease.
        try await MailCrashTests.waitFor(seconds: 420) {
            let delivered = Set(((try? receiver.deliveries()) ?? []).filter { $0.status == 200 }.map(\.id))
            return delivered.isSuperset(of: bodies.keys)
        }
        let after = try receiver.deliveries().dropFirst(refused.count)
        let delivered = after.filter { $0.status == 200 }
        #expect(Set(delivered.map(\.id)) == Set(bodies.keys), "every id delivered, and no other")
        for delivery in after {
            #expect(delivery.verified, "standardwebhooks verifies it: \(delivery.error ?? "")")
            #expect(delivery.body == bodies[delivery.id], "the same id carries the same event")
        }
        let types = delivered.reduce(into: [String: String]()) { $0[$1.id] = $1.type }.values.sorted()
        #expect(types == ["user.confirmed", "user.created", "user.signed_in", "user.signed_in"], "\(types)")
    }
}

import Foundation
import GatehouseMessaging
import GatehouseTesting
import Testing

/// Issue 13: a message survives `kill -9` at any point after the request that queued it was answered,
/// and goes out after the restart.
@Suite("Mail: nothing lost across a crash", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct MailCrashTests {
    @Test func aMessageQueuedBeforeKillNineIsDeliveredAfterTheRestart() async throws {
        guard let binary = ServerProcess.requireBinary() else { return }
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("gh-crash-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: root) }
        let data = root.appendingPathComponent("data")
        let outbox = data.appendingPathComponent("outbox")
        let environment = ["GATEHOUSE_MAIL_RETRY_BASE": "1", "GATEHOUSE_SCRYPT_LOG_N": "10"]

        let first = try await ServerProcess(binary: binary, dataDirectory: data, environment: environment, name: "first")
        // The mail cannot be written (a file stands where the outbox directory was): delivery fails and
        // the message waits in the queue, so the crash below certainly comes before delivery.
        try FileManager.default.removeItem(at: outbox)
        FileManager.default.createFile(atPath: outbox.path, contents: Data())
        let status = try await first.post("/auth/signup", ["email": "crash@example.com", "password": "correct horse 9"])
        #expect(status == 201)
        try await Self.waitFor(seconds: 10) { (try? String(contentsOf: first.log, encoding: .utf8))?.contains("will retry") == true }
        first.kill()

        try FileManager.default.removeItem(at: outbox)
        let second = try await ServerProcess(binary: binary, dataDirectory: data, environment: environment, name: "second")
        defer { second.kill() }
        try await Self.waitFor(seconds: 20) {
            ((try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? []).contains { $0.hasSuffix("confirm_signup.eml") }
        }
        let file = try #require(try FileManager.default.contentsOfDirectory(atPath: outbox.path).first { $0.hasSuffix("confirm_signup.eml") })
        let text = try String(contentsOf: outbox.appendingPathComponent(file), encoding: .utf8)
        let code = try #require(CapturingMailer.code(in: text.replacingOccurrences(of: "\r\n", with: "\n")), "the code is in the delivered mail")
        #expect(try await second.post("/auth/confirm", ["email": "crash@example.com", "code": code]) == 200, "and it works")
    }

    static func waitFor(seconds: Double, _ condition: () -> Bool) async throws {
        let deadline = Date().addingTimeInterval(seconds)
        while !condition() {
            guard Date() < deadline else { throw ServerProcess.TestFailure("timed out after \(seconds) s") }
            try await Task.sleep(for: .milliseconds(100))
        }
    }
}

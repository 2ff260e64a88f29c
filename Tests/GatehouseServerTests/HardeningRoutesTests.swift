import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A mail server that never answers.
struct HangingMailer: MailTransport {
    let name = "hanging"
    func send(_ mail: OutgoingMail) async throws {
        try await Task.sleep(for: .seconds(3600))
    }
    func check() async throws -> [String] { [] }
    func shutdown() async {}
}

/// Issue 11's defects as a client sees them, through the real application.
@Suite("Routes: hardening", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct HardeningRoutesTests {
    /// Runs `body`, failing if it takes longer than `seconds` (it is left to finish in the background).
    static func answered<T: Sendable>(within seconds: Double, _ body: @escaping @Sendable () async throws -> T) async throws -> T? {
        try await withThrowingTaskGroup(of: T?.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                return nil
            }
            let first = try await group.next() ?? nil
            group.cancelAll()
            return first
        }
    }

    /// Forgot-password and resend for a registered address used to write the mail before answering:
    /// a mail server that hangs held the answer (and the timing told registered from unknown). Mail
    /// is only queued now, so both answer at once whatever the mail server does. The mailer hangs for an
    /// hour; the 60 s bound only limits how long a failure takes on a loaded machine.
    @Test(arguments: TestDatabase.available)
    func mailThatNeverGoesOutDoesNotHoldTheAnswer(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database, deliverer: HangingMailer())
        try await app.router { client in
            // Make a registered, unconfirmed account (its own sign-up mail hangs in the queue too).
            let signUp = try await Self.answered(within: 60) {
                try await client.send(.post, "/auth/signup", json: ["email": "hang@example.com", "password": "correct horse 9"])
            }
            #expect(signUp?.status == .created)
            app.clock.advance(by: 61)
            let forgot = try await Self.answered(within: 60) {
                try await client.send(.post, "/auth/password/forgot", json: ["email": "hang@example.com"])
            }
            #expect(forgot?.status == .ok)
            app.clock.advance(by: 61)
            let resend = try await Self.answered(within: 60) {
                try await client.send(.post, "/auth/resend-code", json: ["email": "hang@example.com"])
            }
            #expect(resend?.status == .ok)
            let queued = try await app.built.store.read { try await $0.messageQueueCounts() }.queued
            #expect(queued >= 1, "the messages wait in the queue, not in the requests")
        }
    }

    /// One address flooding sign-in cannot take the hashing queue: past its share of in-flight hashes
    /// it gets 429 with Retry-After at once, and a sign-in from another address still goes through.
    @Test(arguments: TestDatabase.available)
    func oneAddressFloodingSignInGetsItsShareAndNoMore(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database, realTime: true) { configuration in
            configuration.trustedProxies = ["127.0.0.1"]
            configuration.hashingConcurrency = 1
            configuration.hashingLimits = .init(maxQueued: 64, perLane: 2, maxWait: 30)
            configuration.scrypt = .init(logN: 12)
        }
        try await app.live { client in
            let legit = try await client.signedIn(app, email: "legit@example.com")
            #expect(legit.status == .ok)
            // Real concurrent connections (the test client sends one request at a time).
            let port = try #require(client.port)
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpMaximumConnectionsPerHost = 32
            let session = URLSession(configuration: configuration)
            @Sendable func signIn(_ email: String, _ password: String, from address: String) async throws -> (HTTPResponse.Status, String?) {
                var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/auth/signin")!)
                request.httpMethod = "POST"
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.setValue(address, forHTTPHeaderField: "X-Forwarded-For")
                request.httpBody = Data(#"{"email":"\#(email)","password":"\#(password)"}"#.utf8)
                let (_, response) = try await session.data(for: request)
                let http = try #require(response as? HTTPURLResponse)
                return (HTTPResponse.Status(code: http.statusCode), http.value(forHTTPHeaderField: "Retry-After"))
            }
            let answers = try await withThrowingTaskGroup(of: (HTTPResponse.Status, String?).self) { group in
                for index in 0..<16 {
                    group.addTask { try await signIn("nobody\(index)@example.com", "wrong pass 1", from: "203.0.113.50") }
                }
                // Meanwhile a sign-in from elsewhere.
                let other = try await signIn("legit@example.com", "correct horse 9", from: "198.51.100.20")
                #expect(other.0 == .ok)
                return try await group.reduce(into: [(HTTPResponse.Status, String?)]()) { $0.append($1) }
            }
            let refused = answers.filter { $0.0 == .tooManyRequests }
            #expect(!refused.isEmpty, "the flooding address is held to its share")
            #expect(refused.allSatisfy { $0.1 != nil }, "with Retry-After")
            #expect(answers.allSatisfy { $0.0 == .tooManyRequests || $0.0 == .unauthorized })
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Issue 14, point 1: two instances on one PostgreSQL database. A session ended on one is refused by
/// the other at once — through PostgreSQL's LISTEN/NOTIFY, not the cache's TTL: the test clock never
/// moves, so without the notification the other instance's cache would serve the ended session forever.
@Suite("Events across instances (PostgreSQL LISTEN/NOTIFY)", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct CrossInstanceInvalidationTests {
    static let masterKey = Data(repeating: 7, count: 32).base64EncodedString()

    /// `count` instances of one deployment: one fresh PostgreSQL schema, one master key.
    /// - Returns: The database URL and the apps (not started).
    static func instances(_ count: Int) async throws -> (url: String, apps: [TestApp]) {
        let url = TestDatabase.postgres.freshURL().url
        var apps: [TestApp] = []
        for _ in 0..<count {
            apps.append(
                try await TestApp.make(database: .postgres) { configuration in
                    configuration.masterKey = Self.masterKey
                    configuration.databaseURL = url
                }
            )
        }
        return (url, apps)
    }

    /// Ends every connection whose last statement was LISTEN on the store's channel (as a PostgreSQL
    /// restart or a network cut would); returns how many.
    static func terminateListeners(url: String) async throws -> Int {
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "search_path" }?.value)
        var components = try #require(URLComponents(string: url))
        components.queryItems = nil
        let sql = "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%gh_events_\(schema)%'"
        let result = try await PythonScript.execute(["psql", components.string!, "-tAc", sql])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    /// Waits until each app has listened more than `after[i]` times (so: is listening, or listening again).
    static func waitForListening(_ apps: [TestApp], after: [Int]? = nil) async throws {
        // Bounds a failure only: under the full parallel suite the first LISTEN can take seconds.
        let deadline = Date().addingTimeInterval(30)
        func done() throws -> Bool {
            apps.enumerated().allSatisfy { index, app in (app.built.eventChannelConnections ?? 0) > (after?[index] ?? 0) }
        }
        while try !done(), Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
        #expect(try done(), "every instance listens to the others")
    }

    /// Signs in on `a`, caches the session on `b`, signs out on `a`; returns how long `b` took to refuse.
    static func signOutLatency(
        _ first: TestApp,
        _ second: TestApp,
        _ a: any TestClientProtocol,
        _ b: any TestClientProtocol,
        email: String
    ) async throws
        -> TimeInterval?
    {
        let tokens = try #require(try await a.signedIn(mailedBy: [first, second], email: email).json?.objectValue)
        let access = try #require(tokens["access_token"]?.stringValue)
        let refresh = try #require(tokens["refresh_token"]?.stringValue)
        #expect(try await b.send(.get, "/me", bearer: access).status == .ok, "the other instance accepts the token (and caches the session)")
        #expect(try await b.send(.get, "/me", bearer: access).status == .ok)
        #expect(try await a.send(.post, "/auth/signout", json: ["refresh_token": .string(refresh)]).status == .noContent)
        let ended = Date()
        while Date().timeIntervalSince(ended) < 1 {
            if try await b.send(.get, "/me", bearer: access).status == .unauthorized { return Date().timeIntervalSince(ended) }
            try await Task.sleep(for: .milliseconds(5))
        }
        return nil
    }

    /// The listening connections are cut; each instance reconnects with back-off and listens again,
    /// and a sign-out still reaches the other instance.
    @Test func theChannelComesBackAfterItsConnectionIsCut() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let (url, instances) = try await Self.instances(2)
        let (first, second) = (instances[0], instances[1])
        try await first.router { a in
            try await second.router { b in
                try await Self.waitForListening([first, second])
                let before = [first, second].map { $0.built.eventChannelConnections ?? 0 }
                let cut = try await Self.terminateListeners(url: url)
                #expect(cut >= 2, "both listening connections cut (\(cut))")
                try await Self.waitForListening([first, second], after: before)
                let latency = try await Self.signOutLatency(first, second, a, b, email: "cut@example.com")
                #expect(latency != nil, "the other instance still served the ended session after 1 s")
            }
        }
    }

    @Test func aSessionEndedOnOneInstanceIsRefusedByTheOtherAtOnce() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let (_, instances) = try await Self.instances(2)
        let (first, second) = (instances[0], instances[1])
        try await first.router { a in
            try await second.router { b in
                try await Self.waitForListening([first, second])
                let latency = try #require(
                    try await Self.signOutLatency(first, second, a, b, email: "alice@example.com"),
                    "the other instance still served the ended session after 1 s"
                )
                FileHandle.standardError.write(Data("note: cross-instance sign-out seen after \(Int(latency * 1000)) ms\n".utf8))
            }
        }
    }
}

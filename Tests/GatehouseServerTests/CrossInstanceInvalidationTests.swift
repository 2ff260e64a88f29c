import Foundation
import GatehouseCore
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Issue 14, point 1: two instances on one PostgreSQL database. A session ended on one is refused by
/// the other at once — through PostgreSQL's LISTEN/NOTIFY, not the cache's TTL: the test clock never
/// moves, so without the notification the other instance's cache would serve the ended session forever.
@Suite("Events across instances (PostgreSQL LISTEN/NOTIFY)")
struct CrossInstanceInvalidationTests {
    static let masterKey = Data(repeating: 7, count: 32).base64EncodedString()

    /// How many connections LISTEN on the store's channel (both instances must, before the test acts).
    static func listeners(url: String) async throws -> Int {
        let schema = try #require(URLComponents(string: url)?.queryItems?.first { $0.name == "search_path" }?.value)
        var components = try #require(URLComponents(string: url))
        components.queryItems = nil
        let sql = "SELECT count(*) FROM pg_stat_activity WHERE query ILIKE 'LISTEN%gh_events_\(schema)%'"
        let result = try await PythonScript.execute(["psql", components.string!, "-tAc", sql])
        return Int(result.output.trimmingCharacters(in: .whitespacesAndNewlines)) ?? -1
    }

    @Test func aSessionEndedOnOneInstanceIsRefusedByTheOtherAtOnce() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let url = TestDatabase.postgres.freshURL().url
        let first = try await TestApp.make(database: .postgres) { configuration in
            configuration.masterKey = Self.masterKey
            configuration.databaseURL = url
        }
        let second = try await TestApp.make(database: .postgres) { configuration in
            configuration.masterKey = Self.masterKey
            configuration.databaseURL = url
        }
        try await first.router { a in
            try await second.router { b in
                let deadline = Date().addingTimeInterval(10)
                while try await Self.listeners(url: url) < 2, Date() < deadline { try await Task.sleep(for: .milliseconds(20)) }
                #expect(try await Self.listeners(url: url) == 2, "both instances listen")

                let tokens = try #require(try await a.signedIn(first).json?.objectValue)
                let access = try #require(tokens["access_token"]?.stringValue)
                let refresh = try #require(tokens["refresh_token"]?.stringValue)
                #expect(try await b.send(.get, "/me", bearer: access).status == .ok, "the other instance accepts the token (and caches the session)")
                #expect(try await b.send(.get, "/me", bearer: access).status == .ok)

                #expect(try await a.send(.post, "/auth/signout", json: ["refresh_token": .string(refresh)]).status == .noContent)
                let ended = Date()
                var refusedAfter: TimeInterval?
                while Date().timeIntervalSince(ended) < 1 {
                    if try await b.send(.get, "/me", bearer: access).status == .unauthorized {
                        refusedAfter = Date().timeIntervalSince(ended)
                        break
                    }
                    try await Task.sleep(for: .milliseconds(5))
                }
                let latency = try #require(refusedAfter, "the other instance still served the ended session after 1 s")
                FileHandle.standardError.write(Data("note: cross-instance sign-out seen after \(Int(latency * 1000)) ms\n".utf8))
            }
        }
    }
}

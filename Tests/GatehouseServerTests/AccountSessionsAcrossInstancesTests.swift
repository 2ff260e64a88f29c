import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Issue 29, point 5: two instances on one PostgreSQL database. A session ended from the list on one
/// instance is refused by the other at once, and an email change made on one shows on the other —
/// through LISTEN/NOTIFY, not a cache's TTL (the test clock never moves).
@Suite("Events across instances: the session list and email change", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AccountSessionsAcrossInstancesTests {
    typealias Instances = CrossInstanceInvalidationTests

    @Test func aSessionEndedFromTheListOnOneInstanceIsRefusedByTheOtherAtOnce() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let (_, instances) = try await Instances.instances(2)
        let (first, second) = (instances[0], instances[1])
        try await first.router { a in
            try await second.router { b in
                try await Instances.waitForListening([first, second])
                let mine = try await a.signedIn(first, email: "lister@example.com").string("access_token")
                let device = try await a.send(.post, "/auth/signin", json: ["email": "lister@example.com", "password": "correct horse 9"])
                let access = device.string("access_token")
                let refresh = device.string("refresh_token")
                #expect(try await b.send(.get, "/me", bearer: access).status == .ok, "the other instance accepts (and caches) the session")
                #expect(try await b.send(.get, "/me", bearer: access).status == .ok)
                let listed = try await a.send(.get, "/me/sessions", bearer: mine)
                let id = try #require(listed["sessions"]?.arrayValue?.compactMap(\.objectValue).first { $0["current"] == .bool(false) }?["id"])
                #expect(try await a.send(.delete, "/me/sessions/\(id.stringValue ?? "")", bearer: mine).status == .noContent)
                let ended = Date()
                var refused: TimeInterval?
                while Date().timeIntervalSince(ended) < 1 {
                    if try await b.send(.get, "/me", bearer: access).status == .unauthorized {
                        refused = Date().timeIntervalSince(ended)
                        break
                    }
                    try await Task.sleep(for: .milliseconds(5))
                }
                #expect(refused != nil, "the other instance still served the ended session after 1 s")
                #expect(try await b.send(.post, "/auth/refresh", json: ["refresh_token": .string(refresh)]).status == .unauthorized)
                #expect(try await b.send(.get, "/me", bearer: mine).status == .ok, "the caller's own session goes on")
            }
        }
    }

    @Test func anEmailChangeOnOneInstanceShowsOnTheOther() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let (_, instances) = try await Instances.instances(2)
        let (first, second) = (instances[0], instances[1])
        try await first.router { a in
            try await second.router { b in
                try await Instances.waitForListening([first, second])
                let access = try await a.signedIn(first, email: "mover@example.com").string("access_token")
                #expect(try await b.send(.get, "/me", bearer: access).string("email") == "mover@example.com", "cached on the other instance")
                let body: JSONValue = ["email": "moved@example.com", "current_password": "correct horse 9"]
                #expect(try await a.send(.post, "/me/email", json: body, bearer: access).status == .ok)
                let code = try #require(await first.mailer.latestCode(to: "moved@example.com", kind: "confirm_email_change"))
                // The code is redeemed on the other instance: the pending change is in the shared database.
                #expect(try await b.send(.post, "/me/email/verify", json: ["code": .string(code)], bearer: access).status == .ok)
                let changed = Date()
                var seen = try await a.send(.get, "/me", bearer: access).string("email")
                while seen != "moved@example.com", Date().timeIntervalSince(changed) < 1 {
                    try await Task.sleep(for: .milliseconds(5))
                    seen = try await a.send(.get, "/me", bearer: access).string("email")
                }
                #expect(seen == "moved@example.com", "the first instance shows the new address within 1 s")
            }
        }
    }
}

import Foundation
import GatehouseTesting
import Testing

/// Issue 29, point 5, on the fleet: a session ended from the list on one instance is refused by the
/// other two within the target (1 s), and an email change started on one instance is redeemed on
/// another.
extension FleetTests {
    @Test func aSessionEndedFromTheListIsRefusedByTheOtherInstances() async throws {
        try await Fleet.run { fleet in
            let mine = try await fleet.signedIn("devices@example.com")
            let other = await fleet.send("POST", "/auth/signin", json: ["email": "devices@example.com", "password": Fleet.password])
            let access = try #require(other.string("access_token"))
            let refresh = try #require(other.string("refresh_token"))
            for index in 1..<3 {
                // Twice: the second answer comes from that instance's cache.
                #expect(await fleet.send(to: index, "GET", "/me", bearer: access).status == 200)
                #expect(await fleet.send(to: index, "GET", "/me", bearer: access).status == 200)
            }
            let listed = await fleet.send(to: 0, "GET", "/me/sessions", bearer: mine.access)
            let sessions = (listed.json["sessions"] as? [[String: Any]]) ?? []
            #expect(sessions.count == 2, "\(listed.status) \(String(decoding: listed.body, as: UTF8.self))")
            let id = try #require(sessions.first { $0["current"] as? Bool == false }?["id"] as? String)
            #expect(await fleet.send(to: 0, "DELETE", "/me/sessions/\(id)", bearer: mine.access).status == 204)
            let ended = Date()
            for index in 1..<3 {
                while await fleet.send(to: index, "GET", "/me", bearer: access).status == 200 {
                    guard Date().timeIntervalSince(ended) < 2 else { break }
                }
                #expect(Date().timeIntervalSince(ended) < 1, "instance \(index) refused the ended session within 1 s")
            }
            #expect(await fleet.send(to: 2, "POST", "/auth/refresh", json: ["refresh_token": refresh]).status == 401)
            #expect(await fleet.send(to: 1, "DELETE", "/me/sessions/\(id)", bearer: mine.access).status == 404)
            #expect(await fleet.send(to: 2, "GET", "/me", bearer: mine.access).status == 200)
        }
    }

    @Test func anEmailChangeStartedOnOneInstanceIsRedeemedOnAnother() async throws {
        try await Fleet.run { fleet in
            let tokens = try await fleet.signedIn("mover@example.com")
            let started = await fleet.send(
                to: 0,
                "POST",
                "/me/email",
                json: ["email": "moved@example.com", "current_password": Fleet.password],
                bearer: tokens.access
            )
            #expect(started.status == 200)
            let code = try await fleet.code(for: "moved@example.com", kind: "confirm_email_change")
            let verified = await fleet.send(to: 1, "POST", "/me/email/verify", json: ["code": code], bearer: tokens.access)
            #expect(verified.status == 200 && verified.string("email") == "moved@example.com")
            let changedAt = Date()
            var seen = await fleet.send(to: 2, "GET", "/me", bearer: tokens.access).string("email")
            while seen != "moved@example.com", Date().timeIntervalSince(changedAt) < 1 {
                seen = await fleet.send(to: 2, "GET", "/me", bearer: tokens.access).string("email")
            }
            #expect(seen == "moved@example.com", "the third instance shows the new address within 1 s")
            let signIn = await fleet.send("POST", "/auth/signin", json: ["email": "moved@example.com", "password": Fleet.password])
            #expect(signIn.status == 200)
        }
    }
}

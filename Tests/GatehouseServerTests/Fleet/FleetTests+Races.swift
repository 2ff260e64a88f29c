import Foundation
import GatehouseTesting
import Testing

/// Issue 14, point 2: every counter and single-use check holds under PostgreSQL's READ COMMITTED with
/// concurrent requests spread over the instances by the balancer.
extension FleetTests {
    /// Runs `count` copies of `request` at once; their replies.
    static func together(_ count: Int, _ request: @escaping @Sendable (Int) async -> HTTPProbe.Reply) async -> [HTTPProbe.Reply] {
        await withTaskGroup(of: HTTPProbe.Reply.self) { group in
            for index in 0..<count { group.addTask { await request(index) } }
            return await group.reduce(into: []) { $0.append($1) }
        }
    }

    @Test func racesThroughTheBalancerEndAsOnOneServer() async throws {
        try await Fleet.run { fleet in
            // Sign-up: twelve at once for one address, one account.
            let signups = await Self.together(12) { index in
                await fleet.send("POST", "/auth/signup", json: ["email": "twin@example.com", "password": "correct horse \(index)"])
            }
            #expect(signups.allSatisfy { $0.status == 201 }, "the same answer to every request: \(signups.map(\.status))")
            #expect(Set(signups.compactMap(\.upstream)).count == 3, "spread over the three instances")
            #expect(try await fleet.accounts(["twin@example.com"]) == 1)

            // A code's five tries: twenty wrong guesses at once spend exactly five (a guess after the tries
            // are spent is still answered `code_mismatch`, by design), and the right code no longer works.
            _ = await fleet.send("POST", "/auth/signup", json: ["email": "guess@example.com", "password": Fleet.password])
            let code = try await fleet.code(for: "guess@example.com")
            let wrong = String(format: "%06d", (Int(code)! + 1) % 1_000_000)
            let guesses = await Self.together(20) { _ in
                await fleet.send("POST", "/auth/confirm", json: ["email": "guess@example.com", "code": wrong])
            }
            #expect(guesses.allSatisfy { ["code_mismatch", "too_many_requests"].contains($0.errorCode ?? "") })
            let attempts = try await fleet.postgres.sql(
                "SELECT attempts FROM fleet.gh_codes WHERE user_id = (SELECT id FROM fleet.gh_users WHERE email = 'guess@example.com')"
            )
            #expect(attempts == "5", "the code's five tries, not one more, whichever instance took them")
            let right = await fleet.send("POST", "/auth/confirm", json: ["email": "guess@example.com", "code": code])
            #expect(right.status == 400 || right.status == 429, "the code is spent: \(right.status)")

            // Refresh: ten at once with one token keep one chain.
            let tokens = try await fleet.signedIn("chain@example.com")
            let refreshes = await Self.together(10) { _ in await fleet.send("POST", "/auth/refresh", json: ["refresh_token": tokens.refresh]) }
            #expect(refreshes.allSatisfy { $0.status == 200 }, "\(refreshes.map(\.status))")
            let successors = Set(refreshes.compactMap { $0.string("refresh_token") })
            #expect(successors.count == 1, "one successor, whichever instance answered")
            let next = await fleet.send("POST", "/auth/refresh", json: ["refresh_token": successors.first ?? ""])
            #expect(next.status == 200, "and the chain goes on")

            // Google: ten first sign-ins at once with one identity make one account.
            let idToken = fleet.issuer.token(.google, audience: Fleet.googleClient, subject: "google-twin", email: "gtwin@example.com")
            let google = await Self.together(10) { _ in await fleet.send("POST", "/auth/google", json: ["id_token": idToken]) }
            #expect(google.allSatisfy { $0.status == 200 }, "\(google.map(\.status))")
            #expect(google.filter { $0.json["is_new_user"] as? Bool == true }.count == 1, "one of them created the account")
            var subjects = Set<String>()
            for reply in google {
                let me = await fleet.send("GET", "/me", bearer: reply.string("access_token"))
                subjects.insert(me.string("sub") ?? "?")
            }
            #expect(subjects.count == 1, "every answer signed in the same user")

            // The sign-in throttle: thirty wrong passwords at once get no more evaluations than in a row —
            // five free tries, a sixth that sets a 1 s block, and one more each time a block (doubling) ends.
            let burst = Date()
            let throttled = await Self.together(30) { _ in
                await fleet.send("POST", "/auth/signin", json: ["email": "chain@example.com", "password": "wrong horse 1"])
            }
            let seconds = Date().timeIntervalSince(burst)
            let evaluated = throttled.filter { $0.errorCode == "invalid_credentials" }.count
            let sequential = 6 + Int(log2(seconds + 1))
            #expect(evaluated >= 1 && evaluated <= sequential, "\(evaluated) evaluated in \(seconds) s; in a row: \(sequential)")
            let refused = throttled.filter { $0.status == 429 }
            #expect(refused.count == 30 - evaluated && refused.allSatisfy { $0.headers["retry-after"] != nil })
        }
    }
}

import Foundation
import GatehouseTesting
import Testing

/// Issue 14, points 6 and 7: an instance killed and PostgreSQL stopped under load.
extension FleetTests {
    /// Six sessions to drive the load with.
    static func sessions(_ fleet: Fleet, tag: String) async throws -> [(access: String, refresh: String)] {
        var sessions: [(access: String, refresh: String)] = []
        for index in 0..<6 { sessions.append(try await fleet.signedIn("\(tag)-user\(index)@example.com")) }
        return sessions
    }

    /// Every session still refreshes: a refresh that got no clear answer is retried with the token it sent.
    static func expectEverySessionGoesOn(_ fleet: Fleet, _ load: FleetLoad) async {
        for chain in load.sessions {
            let refreshed = await fleet.send("POST", "/auth/refresh", json: ["refresh_token": chain.refresh])
            #expect(refreshed.status == 200, "the session survived: \(refreshed.status) \(String(decoding: refreshed.body, as: UTF8.self))")
            let me = await fleet.send("GET", "/me", bearer: refreshed.string("access_token"))
            #expect(me.status == 200)
        }
    }

    /// Every sign-up that was answered 201 made its account.
    static func expectNothingLost(_ fleet: Fleet, _ samples: [FleetLoad.Sample]) async throws {
        let created = samples.filter { $0.kind == "signup" && $0.reply.status == 201 }.compactMap(\.email)
        #expect(!created.isEmpty)
        #expect(try await fleet.accounts(created) == created.count, "every answered sign-up is in the database")
    }

    @Test func anInstanceKilledMidLoadLosesNothing() async throws {
        try await Fleet.run { fleet in
            let load = FleetLoad(sessions: try await Self.sessions(fleet, tag: "kill"))
            async let running: Void = load.run(fleet, tag: "kill")
            try await Task.sleep(for: .seconds(1.5))
            let victim = "127.0.0.1:\(fleet.instances[1].port)"
            fleet.kill(1)
            let killedAt = load.recorded.count
            try await Task.sleep(for: .seconds(3))
            load.stop()
            await running

            let samples = load.recorded
            #expect(samples.count > killedAt + 10, "the load went on after the kill")
            let failed = samples.filter { ![200, 201].contains($0.reply.status) }
            for sample in failed {
                #expect(
                    sample.reply.status == 502 && sample.kind != "me",
                    "only the dead instance's in-flight POSTs fail: \(sample.kind) \(sample.reply.status)"
                )
                #expect(sample.reply.upstream?.contains(victim) == true, "and they were on the dead instance: \(sample.reply.upstream ?? "?")")
            }
            #expect(failed.count <= 6, "at most one in-flight request per worker: \(failed.count)")
            #expect(samples.allSatisfy { $0.reply.status == 200 || $0.reply.status == 201 || $0.reply.status == 502 })
            try await Self.expectNothingLost(fleet, samples)
            await Self.expectEverySessionGoesOn(fleet, load)
        }
    }

    /// PostgreSQL stopped under load: requests answer 503 `unavailable` within a bounded time (never
    /// 500, never a hang), `/ready` answers 503; started again, the instances recover on their own.
    @Test func postgresStoppedMidLoadAnswers503AndRecovers() async throws {
        try await Fleet.run { fleet in
            let load = FleetLoad(sessions: try await Self.sessions(fleet, tag: "pg"))
            async let running: Void = load.run(fleet, tag: "pg")
            try await Task.sleep(for: .seconds(1))
            try await fleet.postgres.stop()
            let stoppedAt = Date()
            try await Task.sleep(for: .seconds(3))
            for index in 0..<3 {
                let ready = await fleet.send(to: index, "GET", "/ready")
                #expect(ready.status == 503, "instance \(index) is not ready while the database is down")
            }
            let outage = load.recorded.filter { $0.reply.status == 503 }
            #expect(!outage.isEmpty, "the load saw the outage")
            try await fleet.postgres.start()
            let startedAt = Date()
            var recovered: [Int: TimeInterval] = [:]
            while recovered.count < 3, Date().timeIntervalSince(startedAt) < 30 {
                for index in 0..<3 where recovered[index] == nil {
                    if await fleet.send(to: index, "GET", "/ready").status == 200 { recovered[index] = Date().timeIntervalSince(startedAt) }
                }
                try await Task.sleep(for: .milliseconds(100))
            }
            #expect(recovered.count == 3, "every instance is ready again on its own")
            print(
                String(
                    format: "fleet: PostgreSQL down for %.1f s; instances ready again %@ s after it started",
                    startedAt.timeIntervalSince(stoppedAt),
                    recovered.values.sorted().map { String(format: "%.1f", $0) }.joined(separator: ", ")
                )
            )
            try await Task.sleep(for: .seconds(1))
            load.stop()
            await running

            let samples = load.recorded
            for sample in samples where ![200, 201].contains(sample.reply.status) {
                #expect(
                    sample.reply.status == 503 && sample.reply.errorCode == "unavailable",
                    "\(sample.kind): \(sample.reply.status) \(String(decoding: sample.reply.body, as: UTF8.self))"
                )
            }
            let slowest = samples.map(\.reply.seconds).max() ?? 0
            #expect(slowest < 10, "no request waited past the bounds (acquire 2 s, query 4 + 2 s): \(slowest) s")
            let tail = samples.suffix(9)
            #expect(tail.allSatisfy { [200, 201].contains($0.reply.status) }, "the last requests after recovery succeed")
            try await Self.expectNothingLost(fleet, samples)
            await Self.expectEverySessionGoesOn(fleet, load)
            for index in 0..<3 {
                let signup = await fleet.send(
                    to: index,
                    "POST",
                    "/auth/signup",
                    json: ["email": "after\(index)@example.com", "password": Fleet.password]
                )
                #expect(signup.status == 201, "instance \(index) writes again")
            }
        }
    }
}

extension FleetTests {
    /// PostgreSQL frozen (SIGSTOP: connections stay open, nothing answers, the server's own statement
    /// timeout cannot fire): a write is cut off by the client-side watchdog (query_timeout + 2 s) and
    /// answers 503; thawed, the instances go on.
    @Test func aFrozenDatabaseIsBoundedByTheWatchdog() async throws {
        try await Fleet.run { fleet in
            _ = try await fleet.signedIn("before-freeze@example.com")
            try await fleet.postgres.signal(SIGSTOP)
            let frozen = await Self.together(3) { index in
                await fleet.send(to: index, "POST", "/auth/signup", json: ["email": "frozen\(index)@example.com", "password": Fleet.password])
            }
            try await fleet.postgres.signal(SIGCONT)
            for reply in frozen {
                #expect(reply.status == 503 && reply.errorCode == "unavailable", "\(reply.status)")
                #expect(reply.seconds < 10, "bounded by the watchdog (query_timeout 4 s + 2 s): \(reply.seconds) s")
            }
            let deadline = Date().addingTimeInterval(20)
            var after = await fleet.send("POST", "/auth/signup", json: ["email": "thawed@example.com", "password": Fleet.password])
            while after.status != 201, Date() < deadline {
                try await Task.sleep(for: .milliseconds(200))
                after = await fleet.send("POST", "/auth/signup", json: ["email": "thawed@example.com", "password": Fleet.password])
            }
            #expect(after.status == 201, "writes work again after the thaw")
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Testing

/// The suites that share one app between their tests (``PoolHarness/shared()``) rely on two things:
/// each test starts on what a new app would show, and two tests never use the app at once.
@Suite("Shared apps: a reset between tests, one test at a time", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SharedAppsTests {
    static let apps = PoolHarness.shared()

    @Test(arguments: TestDatabase.available)
    func aTestSeesNothingTheTestBeforeLeft(_ database: TestDatabase) async throws {
        let before = try await Self.apps.with(database) { h in
            let tokens = try await h.confirmedUser("left@example.com")
            for _ in 0..<6 {
                _ = try? await h.passwords.signIn(email: "left@example.com", password: "wrong horse 1", client: h.client, logger: h.logger)
            }
            _ = try await PhoneSignInTests.send(h)
            h.mailer.setFailing(true)
            _ = try await h.passwords.signUp(
                email: "queued@example.com",
                password: "correct horse 9",
                fullName: nil,
                client: h.client,
                logger: h.logger
            )
            #expect(try await h.store.read { try await $0.messageQueueCounts() }.queued > 0)
            h.clock.advance(by: 86_400)
            return (tokens: tokens, clientID: h.built.clientID, keys: try await h.store.secrets.signingKeys().map(\.kid))
        }
        try await Self.apps.with(database) { h in
            #expect(h.clock.now() == h.startedAt)
            let mail = await h.mailer.all
            let texts = await h.texts.delivered
            #expect(mail.isEmpty && texts.isEmpty)
            #expect(try await h.store.read { try await $0.user(emailKey: "left@example.com") } == nil)
            #expect(try await h.store.read { try await $0.user(phone: PhoneSignInTests.number) } == nil)
            let counts = try await h.store.read { try await $0.messageQueueCounts() }
            #expect(counts.queued == 0 && counts.dead == 0)
            // The session behind the earlier tokens is gone, so they are refused.
            await #expect(throws: GatehouseError.self) { try await h.me(before.tokens) }
            // What start-up wrote stays: the client id and the signing keys.
            #expect(h.built.clientID == before.clientID)
            #expect(try await h.store.secrets.signingKeys().map(\.kid) == before.keys)
            // The address signs up again as a new one: no throttle left, and mail goes out.
            let again = try await h.confirmedUser("left@example.com")
            let me = try await h.me(again)
            #expect(try await h.store.read { try await $0.user(id: me.sub) }?.email == "left@example.com")
        }
    }

    @Test func testsThatShareAnAppTakeTurns() async throws {
        let inside = LockedBox((now: 0, most: 0))
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    try await Self.apps.with { _ in
                        inside.withLock {
                            $0.now += 1
                            $0.most = max($0.most, $0.now)
                        }
                        try await Task.sleep(for: .milliseconds(50))
                        inside.withLock { $0.now -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(inside.withLock { $0.most } == 1)
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Testing

/// Issue 29, part 1: a user's own sessions on a real store. Every sign-in path records the device
/// and the coarse address; a refresh notes when and from where; ending one works as signing out of it
/// (its access and refresh tokens fail at once), and only for the caller's own live sessions.
@Suite("Pool: a user's list of sessions", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SessionListTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static let iPhone = ClientInfo(
        address: "203.0.113.77",
        userAgent:
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1"
    )
    static let laptop = ClientInfo(
        address: "2001:db8:1234:5678::9",
        userAgent: "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36"
    )

    static func signIn(_ h: PoolHarness, _ client: ClientInfo, email: String = "alice@example.com") async throws -> AuthTokens {
        try await h.passwords.signIn(email: email, password: "correct horse 9", client: client, logger: h.logger)
    }

    @Test(arguments: TestDatabase.available)
    func theListShowsEachDeviceAndMarksTheCurrentOne(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let list = h.built.useCases.accountSessions
            _ = try await h.confirmedUser()
            h.clock.advance(by: 10)
            let phone = try await Self.signIn(h, Self.iPhone)
            h.clock.advance(by: 10)
            let mac = try await Self.signIn(h, Self.laptop)
            let me = try await h.me(mac)
            let sessions = try await list.list(for: me)
            #expect(sessions.count == 3, "the harness's own sign-in, the phone and the laptop")
            let current = try #require(sessions.first)
            #expect(current.current && current.id == me.sessionID && current.device == "Chrome on macOS", "most recent first")
            #expect(current.clientAddress == "2001:db8:1234::/48" && current.method == "password" && current.amr == ["pwd"])
            #expect(current.lastRefreshedAt == nil)
            let phoneID = try #require(phone.sessionID)
            let onPhone = try #require(sessions.first { $0.id == phoneID })
            #expect(!onPhone.current && onPhone.device == "Safari on iPhone" && onPhone.clientAddress == "203.0.113.0/24")
            #expect(sessions.filter(\.current).count == 1)
            // The harness signs in without a User-Agent: the list says so rather than guess.
            #expect(sessions.last?.device == "Unknown device" && sessions.last?.clientAddress == "198.51.100.0/24")
            let stored = try await h.store.read { try await $0.session(id: phoneID) }
            #expect(stored?.clientAddress == "203.0.113.0/24", "only the coarse address is kept, never 203.0.113.77")

            // A refresh from elsewhere: the session moves to the top with its new address and time.
            h.clock.advance(by: 60)
            let moved = ClientInfo(address: "192.0.2.10", userAgent: Self.iPhone.userAgent)
            _ = try await h.sessions.refresh(refreshToken: phone.refreshToken, client: moved, logger: h.logger)
            let after = try await list.list(for: me)
            #expect(after.first?.id == phoneID && after.first?.clientAddress == "192.0.2.0/24")
            #expect(after.first?.lastRefreshedAt == h.clock.now().flooredToSeconds)
        }
    }

    @Test(arguments: TestDatabase.available)
    func endingASessionSignsThatDeviceOutAtOnce(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let list = h.built.useCases.accountSessions
            let mine = try await h.confirmedUser()
            let phone = try await Self.signIn(h, Self.iPhone)
            let phoneID = try #require(phone.sessionID)
            let me = try await h.me(mine)
            _ = try await h.me(phone)  // cached as live
            try await list.end(id: phoneID, for: me, logger: h.logger)
            await #expect { _ = try await h.me(phone) } throws: { GatehouseError.Code.of($0) == .unauthorized }
            await #expect { _ = try await h.sessions.refresh(refreshToken: phone.refreshToken, client: h.client, logger: h.logger) } throws: {
                GatehouseError.Code.of($0) == .invalidGrant
            }
            #expect(try await list.list(for: me).map(\.id) == [me.sessionID])
            #expect(try await h.store.read { try await $0.session(id: phoneID) }?.revokedReason == "ended_by_user")
            _ = try await h.me(mine)  // the caller's own session goes on

            // Already ended, unknown, another user's, malformed: one answer, and nothing ends.
            let bob = try await h.me(try await h.confirmedUser("bob@example.com"))
            for id in [
                phoneID, "01936f5e-0000-7000-8000-000000000000", bob.sessionID, "", "../../etc", String(repeating: "a", count: 65), "' OR 1=1 --",
            ] {
                await #expect { try await list.end(id: id, for: me, logger: h.logger) } throws: {
                    ($0 as? GatehouseError)?.code == .notFound && ($0 as? GatehouseError)?.message == "No such session."
                }
            }
            #expect(try await h.store.read { try await $0.session(id: bob.sessionID) }?.isActive == true, "bob's session untouched")

            // Ending one's own current session is signing out.
            try await list.end(id: me.sessionID, for: me, logger: h.logger)
            await #expect { _ = try await h.me(mine) } throws: { GatehouseError.Code.of($0) == .unauthorized }
        }
    }

    @Test func sessionsPastTheirLifetimeOrWithARunOutRefreshTokenAreNotListed() async throws {
        let settings = PoolSettings(refreshTokenLifetime: 3600, maxSessionLifetime: 3 * 3600)
        try await PoolHarness.run(settings: settings) { h in
            let list = h.built.useCases.accountSessions
            let old = try #require(try await h.confirmedUser().sessionID)
            h.clock.advance(by: 3000)
            let kept = try await Self.signIn(h, Self.laptop)
            var refresh = kept.refreshToken
            h.clock.advance(by: 700)  // `old` has not been used for more than the refresh token's hour
            var me = try await h.me(kept)
            let keptID = try #require(kept.sessionID)
            #expect(try await list.list(for: me).map(\.id) == [keptID])
            #expect(try await h.store.read { try await $0.session(id: old) }?.isActive == true, "still a row, no longer a session")
            // Refreshed every 50 minutes, the session lives until its absolute lifetime.
            for _ in 0..<4 {
                let next = try await h.sessions.refresh(refreshToken: refresh, client: Self.laptop, logger: h.logger)
                refresh = next.refreshToken
                me = try await h.me(next)
                #expect(try await list.list(for: me).map(\.id) == [keptID])
                h.clock.advance(by: 3000)
            }
            #expect(try await list.list(for: me).isEmpty, "past the session's three hours")
        }
    }

    @Test func everySignInPathRecordsTheDevice() async throws {
        try await Self.apps.with { h in
            _ = try await h.confirmedUser()
            // Phone sign-in.
            _ = try await PhoneSignInTests.send(h, client: Self.iPhone)
            let code = try await PhoneSignInTests.code(h)
            let byPhone = try await h.phone.verifyCode(phone: PhoneSignInTests.number, code: code, client: Self.iPhone, logger: h.logger)
            let phoneSession = try await h.store.read { try await $0.session(id: try require(byPhone.sessionID)) }
            #expect(phoneSession?.userAgent == Self.iPhone.userAgent && phoneSession?.clientAddress == "203.0.113.0/24")
            // A second factor: the session it completes records the client that completed it.
            let second = h.built.useCases.secondFactor
            let me = try await h.me(try await Self.signIn(h, Self.iPhone))
            let secret = try #require(TOTP.base32Decode(try await second.enrol(for: me).secret))
            _ = try await second.confirm(for: me, code: TOTP.code(secret: secret, step: TOTP.step(at: h.clock.now())), logger: h.logger)
            h.clock.advance(by: 31)
            let refused = await #expect(throws: GatehouseError.self) { _ = try await Self.signIn(h, Self.laptop) }
            let token = try #require(refused?.mfaToken)
            let code2 = TOTP.code(secret: secret, step: TOTP.step(at: h.clock.now()))
            let tokens = try await second.verify(token: token, code: code2, client: Self.laptop, logger: h.logger)
            let mfaID = try #require(tokens.sessionID)
            let mfaSession = try #require(try await h.store.read { try await $0.session(id: mfaID) })
            #expect(mfaSession.method == "password+otp" && mfaSession.clientAddress == "2001:db8:1234::/48")
            #expect(DeviceName.describe(mfaSession.userAgent) == "Chrome on macOS")
            let view = try #require(try await h.built.useCases.accountSessions.list(for: try await h.me(tokens)).first)
            #expect(view.amr == ["pwd", "otp", "mfa"] && view.current)
        }
    }
}

extension Date {
    /// The instant the store keeps (whole seconds).
    var flooredToSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Testing

/// Issue 29, part 2: changing a signed-in user's email address on a real store: step-up, the code in
/// the new mailbox, sign-up's enumeration rules and quotas, the switch and its notices, and the races
/// (two changes at once; the address registered at the same moment).
@Suite("Pool: changing the email address", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct EmailChangeTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static let password = "correct horse 9"

    static func start(_ h: PoolHarness, _ me: Principal, _ email: String, password: String? = password) async throws -> CodeDelivery {
        try await h.built.useCases.emailChange.start(for: me, email: email, currentPassword: password, client: h.client, logger: h.logger)
    }

    static func confirm(_ h: PoolHarness, _ me: Principal, _ code: String, client: ClientInfo? = nil) async throws {
        try await h.built.useCases.emailChange.confirm(for: me, code: code, client: client ?? h.client, logger: h.logger)
    }

    static func code(_ h: PoolHarness, to address: String) async throws -> String {
        try require(await h.mailer.latestCode(to: address, kind: "confirm_email_change"), "no code mailed to \(address)")
    }

    @Test(arguments: TestDatabase.available)
    func aPasswordUserMovesToANewAddressWithTheCurrentPassword(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let tokens = try await h.confirmedUser("old@example.com")
            let me = try await h.me(tokens)
            _ = try await h.profiles.view(for: me, logger: h.logger)  // the app profile exists (and is cached)
            // The session alone is not enough; a wrong password is a failed sign-in.
            await #expect { _ = try await Self.start(h, me, "new@example.com", password: nil) } throws: {
                GatehouseError.Code.of($0) == .reauthenticationRequired
            }
            await #expect { _ = try await Self.start(h, me, "new@example.com", password: "wrong horse 9") } throws: {
                GatehouseError.Code.of($0) == .invalidCredentials
            }
            #expect(await h.mailer.messages(to: "new@example.com").isEmpty, "nothing mailed before the password")
            let delivery = try await Self.start(h, me, "New@Example.com")
            #expect(delivery.destination == "n***@e***.com" && delivery.medium == "EMAIL")
            let code = try await Self.code(h, to: "New@Example.com")
            // Until the code is entered, the old address is the account's.
            h.clock.advance(by: 61)  // past the old address's mail cool-down (its sign-up code)
            _ = try await h.passwords.signIn(email: "old@example.com", password: Self.password, client: h.client, logger: h.logger)
            _ = try await h.passwords.forgotPassword(email: "old@example.com", client: h.client, logger: h.logger)
            let resetCode = try require(await h.mailer.latestCode(to: "old@example.com", kind: "reset_password"))

            try await Self.confirm(h, me, code)
            let user = try require(try await h.store.read { try await $0.user(id: me.sub) })
            #expect(user.email == "New@Example.com" && user.emailKey == "new@example.com" && user.emailVerified)
            #expect(try await h.profiles.view(for: me, logger: h.logger).profile.email == "New@Example.com", "the cached profile was dropped")
            let identity = try await h.store.read { try await $0.identity(provider: "password", subject: me.sub) }
            #expect(identity?.email == "New@Example.com")
            // The old address: a notice, no more sign-in, and its reset code died with it.
            let notices = await h.mailer.messages(to: "old@example.com").filter { $0.kind == "email_changed" }
            #expect(notices.count == 1 && notices[0].body.contains("n***@e***.com") && !notices[0].body.contains("New@Example.com"))
            await #expect {
                _ = try await h.passwords.signIn(email: "old@example.com", password: Self.password, client: h.client, logger: h.logger)
            } throws: { GatehouseError.Code.of($0) == .invalidCredentials }
            await #expect {
                try await h.passwords.resetPassword(
                    email: "new@example.com",
                    code: resetCode,
                    newPassword: "a new horse 10",
                    client: h.client,
                    logger: h.logger
                )
            } throws: { GatehouseError.Code.of($0) == .codeMismatch }
            _ = try await h.passwords.signIn(email: "new@example.com", password: Self.password, client: h.client, logger: h.logger)
            // The ID token's email follows at the next refresh; the session goes on.
            let refreshed = try await h.sessions.refresh(refreshToken: tokens.refreshToken, client: h.client, logger: h.logger)
            let claims = try CompactJWS(parsing: refreshed.idToken).claims
            #expect(claims["email"]?.stringValue == "New@Example.com" && claims["email_verified"] == .bool(true))
            // The code was spent.
            await #expect { try await Self.confirm(h, me, code) } throws: { GatehouseError.Code.of($0) == .codeMismatch }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aTakenAddressGetsTheSameAnswerAndItsOwnerANotice(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            _ = try await h.confirmedUser("owner@example.com")
            let me = try await h.me(try await h.confirmedUser("me@example.com"))
            h.clock.advance(by: 61)  // past the sign-ups' cool-downs
            let free = try await Self.start(h, me, "free@example.com")
            let freeCode = try await Self.code(h, to: "free@example.com")
            let taken = try await Self.start(h, me, "OWNER@example.com")
            #expect(taken.destination == "o***@e***.com" && free.medium == taken.medium)
            let toOwner = await h.mailer.messages(to: "owner@example.com")
            #expect(toOwner.map(\.kind) == ["confirm_signup", "email_in_use"], "a notice, never a code")
            #expect(CapturingMailer.code(in: toOwner.last?.body ?? "") == nil)
            // The later request replaced the earlier one: the free address's code redeems nothing now,
            // exactly as if the taken address had been sent a code (so its answer tells nothing).
            await #expect { try await Self.confirm(h, me, freeCode) } throws: { GatehouseError.Code.of($0) == .codeMismatch }
            #expect(try await h.store.read { try await $0.user(id: me.sub) }?.email == "me@example.com")
            // The caller's own address is the one refusal that names a reason (it is their own).
            await #expect { _ = try await Self.start(h, me, "ME@example.com") } throws: {
                ($0 as? GatehouseError)?.code == .invalidRequest
            }
        }
    }

    @Test func quotasAndCoolDownsAreSignUpsWhateverTheAddress() async throws {
        try await Self.apps.with { h in
            _ = try await h.confirmedUser("owner@example.com")
            let me = try await h.me(try await h.confirmedUser("me@example.com"))
            h.clock.advance(by: 61)  // past the sign-ups' cool-downs
            for address in ["free@example.com", "owner@example.com"] {
                _ = try await Self.start(h, me, address)
                // A second request for the same address within the minute: 429, the same for both.
                await #expect { _ = try await Self.start(h, me, address) } throws: { GatehouseError.Code.of($0) == .tooManyRequests }
            }
            // The account's own cap: five changes an hour, whatever the addresses.
            for index in 0..<3 { _ = try await Self.start(h, me, "spray\(index)@example.com") }
            await #expect { _ = try await Self.start(h, me, "spray9@example.com") } throws: { GatehouseError.Code.of($0) == .tooManyRequests }
            // Hostile input is refused before any quota or mail.
            for bad in ["", "not an address", "a@b", "x\r\nBcc: victim@example.com@example.com", String(repeating: "a", count: 300) + "@example.com"]
            {
                await #expect { _ = try await Self.start(h, me, bad) } throws: { GatehouseError.Code.of($0) == .invalidRequest }
            }
        }
    }

    @Test func codesAreBoundToTheAccountAndToTheirFiveTries() async throws {
        try await Self.apps.with { h in
            let me = try await h.me(try await h.confirmedUser("me@example.com"))
            let other = try await h.me(try await h.confirmedUser("other@example.com"))
            await #expect { try await Self.confirm(h, me, "123456") } throws: { GatehouseError.Code.of($0) == .codeMismatch }
            _ = try await Self.start(h, me, "new@example.com")
            let code = try await Self.code(h, to: "new@example.com")
            await #expect { try await Self.confirm(h, other, code) } throws: { GatehouseError.Code.of($0) == .codeMismatch }
            let wrong = code == "000000" ? "111111" : "000000"
            for _ in 0..<5 {
                await #expect { try await Self.confirm(h, me, wrong, client: ClientInfo(address: "192.0.2.\(Int.random(in: 1...250))")) } throws: {
                    GatehouseError.Code.of($0) == .codeMismatch
                }
            }
            await #expect { try await Self.confirm(h, me, code) } throws: { GatehouseError.Code.of($0) == .codeExpired }
            #expect(try await h.store.read { try await $0.user(id: me.sub) }?.email == "me@example.com")
            // A new request is a new code with five new tries; it expires after an hour.
            h.clock.advance(by: 61)
            _ = try await Self.start(h, me, "new@example.com")
            let fresh = try await Self.code(h, to: "new@example.com")
            h.clock.advance(by: 3601)
            await #expect { try await Self.confirm(h, me, fresh) } throws: { GatehouseError.Code.of($0) == .codeExpired }
        }
    }

    @Test func anAccountWithoutAPasswordNeedsARecentSignIn() async throws {
        try await Self.apps.with { h in
            _ = try await PhoneSignInTests.send(h)
            let tokens = try await PhoneSignInTests.verify(h, code: try await PhoneSignInTests.code(h))
            let me = try await h.me(tokens)
            await #expect { _ = try await Self.start(h, me, "mine@example.com", password: "anything 1") } throws: {
                GatehouseError.Code.of($0) == .invalidRequest
            }
            _ = try await Self.start(h, me, "mine@example.com", password: nil)
            try await Self.confirm(h, me, try await Self.code(h, to: "mine@example.com"))
            let user = try await h.store.read { try await $0.user(id: me.sub) }
            #expect(user?.email == "mine@example.com" && user?.emailVerified == true && user?.phone == PhoneSignInTests.number)
            #expect(await h.mailer.messages(to: "mine@example.com").map(\.kind) == ["confirm_email_change"], "no old address to notify")
            h.clock.advance(by: StepUp.emailChangeMaxAge + 1)
            let refused = await #expect(throws: GatehouseError.self) { _ = try await Self.start(h, me, "later@example.com", password: nil) }
            #expect(refused?.code == .reauthenticationRequired && refused?.message.contains("recent") == true)
        }
    }

    /// Two changes at once, many times over: whichever request commits last owns the pending row,
    /// only its code redeems, and it switches to its own address: never a code to one address
    /// switching the account to the other.
    @Test(arguments: TestDatabase.available)
    func twoChangesAtOnceNeverCrossOrLoseTheSwitch(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let me = try await h.me(try await h.confirmedUser("me@example.com"))
            for round in 0..<5 {  // two requests a round: the account's daily cap is ten
                h.clock.advance(by: 3700)  // past the account's hourly cap
                let a = "a\(round)@example.com"
                let b = "b\(round)@example.com"
                async let first: CodeDelivery = Self.start(h, me, a)
                async let second: CodeDelivery = Self.start(h, me, b)
                _ = try await (first, second)
                let pending = try await h.store.read { try await $0.code(userID: me.sub, purpose: .changeEmail) }
                let winner = try #require(pending?.address)
                #expect([a, b].contains(winner))
                let loser = winner == a ? b : a
                let loserCode = try await Self.code(h, to: loser)
                let winnerCode = try await Self.code(h, to: winner)
                // The loser's code (unless both happen to be the same six digits) redeems nothing.
                if loserCode != winnerCode {
                    await #expect { try await Self.confirm(h, me, loserCode) } throws: { GatehouseError.Code.of($0) == .codeMismatch }
                    #expect(try await h.store.read { try await $0.user(id: me.sub) }?.email != loser)
                }
                try await Self.confirm(h, me, winnerCode)
                #expect(try await h.store.read { try await $0.user(id: me.sub) }?.email == winner, "round \(round)")
            }
        }
    }

    /// The address is signed up at the moment the change is confirmed: the unique key lets one of
    /// them have it. The change proves the mailbox, so it wins over an unconfirmed sign-up (which is
    /// removed, or never created); the account is never half-switched.
    @Test(arguments: TestDatabase.available)
    func aSignUpOfTheAddressAtTheSameMomentLosesToTheProvenChange(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            for round in 0..<5 {
                let me = try await h.me(try await h.confirmedUser("me\(round)@example.com"))
                let target = "contested\(round)@example.com"
                _ = try await Self.start(h, me, target)
                let code = try await Self.code(h, to: target)
                async let signUp = h.passwords.signUp(email: target, password: "other horse 7", fullName: nil, client: h.client, logger: h.logger)
                async let change: Void = Self.confirm(h, me, code)
                _ = try await (signUp, change)
                let holder = try await h.store.read { try await $0.user(emailKey: target) }
                #expect(holder?.id == me.sub && holder?.emailVerified == true, "round \(round)")
                let identities = try await h.store.read { try await $0.identities(userID: me.sub) }
                #expect(identities.map(\.email) == [target])
            }
        }
    }

    /// A confirmed account took the address after the code was sent: the change fails with a clear
    /// error and nothing of it is written.
    @Test(arguments: TestDatabase.available)
    func aConfirmedAccountThatTookTheAddressMeanwhileKeepsIt(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let me = try await h.me(try await h.confirmedUser("me@example.com"))
            _ = try await Self.start(h, me, "late@example.com")
            let code = try await Self.code(h, to: "late@example.com")
            h.clock.advance(by: 61)
            _ = try await h.confirmedUser("late@example.com", password: "their horse 8")
            let refused = await #expect(throws: GatehouseError.self) { try await Self.confirm(h, me, code) }
            #expect(refused?.code == .conflict && refused?.message.contains("another account") == true)
            #expect(try await h.store.read { try await $0.user(id: me.sub) }?.email == "me@example.com")
            #expect(try await h.store.read { try await $0.code(userID: me.sub, purpose: .changeEmail) } == nil, "the change is over")
            _ = try await h.passwords.signIn(email: "late@example.com", password: "their horse 8", client: h.client, logger: h.logger)
            #expect(await h.mailer.messages(to: "me@example.com").filter { $0.kind == "email_changed" }.isEmpty)
        }
    }
}

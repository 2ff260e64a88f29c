import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseStore
import GatehouseTesting
import Testing

/// Phone numbers as a sign-in identity (issue 16) on a real store: codes by SMS through the durable
/// queue, find-or-create by verified number only, single-use codes under concurrency, the five tries,
/// the lifetime, adding a number to a signed-in account, and the refusals — malformed numbers,
/// countries not allowed, premium-rate ranges, phone sign-in switched off.
@Suite("Pool: phone sign-in by SMS code", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct PhoneSignInTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static let number = "+14155550123"

    static func send(_ h: PoolHarness, _ number: String = number, client: ClientInfo? = nil) async throws -> CodeDelivery {
        try await h.phone.sendCode(phone: number, client: client ?? h.client, logger: h.logger)
    }

    static func verify(_ h: PoolHarness, _ number: String = number, code: String) async throws -> AuthTokens {
        try await h.phone.verifyCode(phone: number, code: code, client: h.client, logger: h.logger)
    }

    static func code(_ h: PoolHarness, _ number: String = number) async throws -> String {
        try require(await h.texts.latestCode(to: number), "no text to \(number)")
    }

    @Test(arguments: TestDatabase.available)
    func aNewNumberGetsAnAccountAndSignsInToItAgain(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            // Typed with spaces and dashes; stored and texted as E.164.
            let delivery = try await Self.send(h, "+1 415-555-0123")
            #expect(delivery == CodeDelivery(sms: try PhoneNumber(parsing: Self.number)))
            #expect(delivery.medium == "SMS" && !delivery.destination.contains("555"))
            let texts = await h.texts.texts(to: Self.number)
            #expect(texts.count == 1 && texts[0].kind == "phone_sign_in")
            #expect(texts[0].text.contains("expires in 10 min"))
            let first = try await Self.verify(h, code: try await Self.code(h))
            #expect(first.isNewUser == true)
            let sub = try await h.me(first).sub
            let user = try await h.store.read { try await $0.user(phone: Self.number) }
            #expect(user?.id == sub && user?.email == nil && user?.confirmed == true)
            let identities = try await h.store.read { try await $0.identities(userID: sub) }
            #expect(identities.map(\.provider) == ["phone"])

            h.clock.advance(by: 61)
            _ = try await Self.send(h)
            let again = try await Self.verify(h, "+14155550123", code: try await Self.code(h))
            #expect(again.isNewUser == false)
            #expect(try await h.me(again).sub == sub)
            let view = try await h.profiles.view(for: try await h.me(again), logger: h.logger)
            #expect(view.profile.phone == Self.number && view.profile.phoneVerified)
        }
    }

    @Test func theAnswerAndTheWorkAreTheSameWhetherOrNotTheNumberHasAnAccount() async throws {
        try await Self.apps.with { h in
            _ = try await Self.send(h)
            _ = try await Self.verify(h, code: try await Self.code(h))
            h.clock.advance(by: 61)
            let known = try await Self.send(h)
            let unknown = try await Self.send(h, "+14155550987")
            #expect(known.medium == unknown.medium && known.destination.count == unknown.destination.count)
            // Both numbers got a text and a stored code: signing in creates an account, so there is no
            // "unknown number" answer to tell apart.
            #expect(try await Self.code(h, "+14155550987").count == 6)
            #expect(await h.texts.texts(to: Self.number).count == 2)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aCodeSignsInOnceUnderConcurrentVerifications(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            _ = try await Self.send(h)
            let code = try await Self.code(h)
            let outcomes = await withTaskGroup(of: Result<AuthTokens, any Error>.self) { group in
                for _ in 0..<8 {
                    group.addTask {
                        do { return .success(try await Self.verify(h, code: code)) } catch { return .failure(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            let signedIn = outcomes.compactMap { try? $0.get() }
            #expect(signedIn.count == 1)
            let refusals = outcomes.compactMap { outcome -> GatehouseError.Code? in
                if case .failure(let error) = outcome { return .of(error) }
                return nil
            }
            #expect(refusals.count == 7 && refusals.allSatisfy { $0 == .codeMismatch }, "\(refusals)")
            let sub = try await h.me(try #require(signedIn.first)).sub
            let sessions = try await h.store.read { try await $0.activeSessionIDs(userID: sub) }
            #expect(sessions.count == 1, "one account, one session")
        }
    }

    @Test(arguments: TestDatabase.available)
    func fiveWrongTriesUseTheCodeUpEvenWhenConcurrent(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            _ = try await Self.send(h)
            let code = try await Self.code(h)
            let wrong = code == "000000" ? "111111" : "000000"
            let refusals = await withTaskGroup(of: GatehouseError.Code?.self) { group in
                for _ in 0..<7 {
                    group.addTask {
                        do {
                            _ = try await Self.verify(h, code: wrong)
                            return nil
                        } catch { return .of(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(refusals.allSatisfy { $0 == .codeMismatch })
            await #expect { try await Self.verify(h, code: code) } throws: { GatehouseError.Code.of($0) == .codeExpired }
            #expect(try await h.store.read { try await $0.user(phone: Self.number) } == nil)
        }
    }

    @Test func aCodeExpiresAfterTenMinutesAndANewOneReplacesIt() async throws {
        try await Self.apps.with { h in
            _ = try await Self.send(h)
            let old = try await Self.code(h)
            h.clock.advance(by: 601)
            await #expect { try await Self.verify(h, code: old) } throws: { GatehouseError.Code.of($0) == .codeExpired }
            _ = try await Self.send(h)
            let new = try await Self.code(h)
            if new != old {
                await #expect { try await Self.verify(h, code: old) } throws: { GatehouseError.Code.of($0) == .codeMismatch }
            }
            #expect(try await Self.verify(h, code: new).isNewUser == true)
        }
    }

    @Test(arguments: [
        ("", "A phone number is required."),
        ("4155550123", "international form"),
        ("+1 415 CALL NOW", "only digits"),
        ("+1 415 555 0123 ext 9", "only digits"),
        ("+1 415\u{0}555 0123", "only digits"),
        ("+١٤١٥٥٥٥٠١٢٣", "only digits"),
        ("+1415", "too short"),
        ("+1415555012345678901", "too long"),
        ("+33612345678", "numbers in this country"),
        ("+19005550123", "premium-rate"),
        ("+447000123456", "premium-rate"),
        ("+44 (0)9098 790000", "premium-rate"),
        ("+1 1 415 555 0123", "not a valid phone number"),
        ("+1 415 155 0123", "not a valid phone number"),
    ])
    func hostileAndRefusedNumbersAreRefusedWithAReasonBeforeAnyText(_ typed: String, _ reason: String) async throws {
        try await Self.apps.with { h in
            do {
                _ = try await Self.send(h, typed)
                Issue.record("\(typed.debugDescription) was accepted")
            } catch let error as GatehouseError {
                #expect(error.code == .invalidRequest && error.message.contains(reason), "\(error.message)")
                #expect(!error.message.contains(typed) || typed.isEmpty, "the input is not echoed")
            }
            #expect(await h.texts.delivered.isEmpty)
            // Nothing was drawn from the quotas: a good number goes straight through.
            _ = try await Self.send(h)
        }
    }

    @Test func phoneSignInIsOffWithoutCountries() async throws {
        try await Self.apps.with { h in
            let off = PhoneSignIn(
                strategy: h.pool,
                policy: .disabled,
                limiter: h.limiter,
                events: NoAuthEvents(),
                domainEvents: h.domainEvents,
                stepUp: h.stepUp
            )
            for attempt in [
                { _ = try await off.sendCode(phone: Self.number, client: h.client, logger: h.logger) },
                { _ = try await off.verifyCode(phone: Self.number, code: "123456", client: h.client, logger: h.logger) },
            ] as [@Sendable () async throws -> Void] {
                do {
                    try await attempt()
                    Issue.record("phone sign-in ran while off")
                } catch {
                    #expect(GatehouseError.Code.of(error) == .providerDisabled)
                }
            }
            #expect(await h.texts.delivered.isEmpty)
        }
    }
}

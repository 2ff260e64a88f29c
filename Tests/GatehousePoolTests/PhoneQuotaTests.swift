import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseStore
import GatehouseTesting
import Testing

/// Toll-fraud (SMS pumping) protection: every text draws on quotas per number, per client address,
/// per number range and per day across the server, all or none; each refusal is a 429 with the wait,
/// and a refused request sends nothing and uses no quota.
@Suite("Pool: SMS quotas against toll fraud", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct PhoneQuotaTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static func refusal(_ body: () async throws -> Void) async -> GatehouseError? {
        do {
            try await body()
            return nil
        } catch {
            return error as? GatehouseError
        }
    }

    static func client(_ n: Int) -> ClientInfo { ClientInfo(address: "203.0.113.\(n)") }

    @Test(arguments: TestDatabase.available)
    func oneNumberGetsOneTextAMinuteFiveAnHour(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let number = PhoneSignInTests.number
            _ = try await PhoneSignInTests.send(h, number, client: Self.client(1))
            // Another client, the same number: the number's cool-down holds.
            let early = await Self.refusal { _ = try await PhoneSignInTests.send(h, number, client: Self.client(2)) }
            #expect(early?.code == .tooManyRequests && (1...60).contains(early?.retryAfter ?? 0), "\(String(describing: early))")
            for n in 2...5 {
                h.clock.advance(by: 61)
                _ = try await PhoneSignInTests.send(h, number, client: Self.client(n))
            }
            h.clock.advance(by: 61)
            let sixth = await Self.refusal { _ = try await PhoneSignInTests.send(h, number, client: Self.client(9)) }
            #expect(sixth?.code == .tooManyRequests && (sixth?.retryAfter ?? 0) > 60)
            #expect(await h.texts.texts(to: number).count == 5)
        }
    }

    @Test func aNumberTypedAnotherWayDrawsOnTheSameQuotasAndCode() async throws {
        try await Self.apps.with { h in
            let delivery = try await PhoneSignInTests.send(h, "+44 (0)7700 900123", client: Self.client(1))
            #expect(delivery.destination == "+44…23")
            for variant in ["+447700900123", "0044 7700 900123", "+44 07700-900-123"] {
                let refusal = await Self.refusal { _ = try await PhoneSignInTests.send(h, variant, client: Self.client(2)) }
                #expect(refusal?.code == .tooManyRequests, "\(variant)")
            }
            let code = try await PhoneSignInTests.code(h, "+447700900123")
            #expect(try await PhoneSignInTests.verify(h, "+44 (0) 7700 900123", code: code).isNewUser == true)
            #expect(await h.texts.delivered.map(\.to) == ["+447700900123"])
        }
    }

    @Test func aClientAddressGetsTenTextsAnHourWhateverTheNumbers() async throws {
        try await Self.apps.with { h in
            let client = Self.client(7)
            // Numbers in different ranges (so only the client's quota is shared).
            for n in 0..<10 { _ = try await PhoneSignInTests.send(h, "+1415\(200 + n)0000", client: client) }
            let eleventh = await Self.refusal { _ = try await PhoneSignInTests.send(h, "+14159990000", client: client) }
            #expect(eleventh?.code == .tooManyRequests)
            // Another address is not affected.
            _ = try await PhoneSignInTests.send(h, "+14159990000", client: Self.client(8))
        }
    }

    @Test func aNumberRangeGetsTwentyTextsAnHourFromAnyClients() async throws {
        try await Self.apps.with { h in
            // A pumper walks one carrier block (+1415555 xxxx) from many addresses.
            for n in 0..<20 {
                _ = try await PhoneSignInTests.send(h, "+1415555" + String(format: "%04d", 100 + n), client: Self.client(n))
            }
            let next = await Self.refusal { _ = try await PhoneSignInTests.send(h, "+14155550199", client: Self.client(50)) }
            #expect(next?.code == .tooManyRequests)
            #expect(await h.texts.delivered.count == 20)
            // Another range (+1415556…) is not affected.
            _ = try await PhoneSignInTests.send(h, "+14155560100", client: Self.client(51))
        }
    }

    @Test func theDailyCapStopsEveryTextOnceSpentAndARefusalUsesNoQuota() async throws {
        var limits = RateLimitSettings()
        limits.smsDaily = RateLimitRule(name: "sms.day", freeAttempts: 3, window: 86_400)
        try await PoolHarness.run(settings: PoolSettings(rateLimits: limits)) { h in
            let numbers = ["+14155550100", "+447700900100", "+4915112345678", "+12125550100"]
            for (n, number) in numbers.prefix(3).enumerated() { _ = try await PhoneSignInTests.send(h, number, client: Self.client(n)) }
            let fourth = await Self.refusal { _ = try await PhoneSignInTests.send(h, numbers[3], client: Self.client(9)) }
            #expect(fourth?.code == .tooManyRequests && (fourth?.retryAfter ?? 0) > 3600)
            #expect(await h.texts.delivered.count == 3)
            // The refused request drew nothing from the number's own quota: once the day has passed it
            // is texted at once, without waiting for a cool-down it never started.
            h.clock.advance(by: 86_401)
            _ = try await PhoneSignInTests.send(h, numbers[3], client: Self.client(9))
        }
    }

    @Test(arguments: TestDatabase.available)
    func aFloodOfConcurrentSendsTextsOnce(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let outcomes = await withTaskGroup(of: GatehouseError.Code?.self) { group in
                for n in 0..<12 {
                    group.addTask {
                        do {
                            _ = try await PhoneSignInTests.send(h, PhoneSignInTests.number, client: Self.client(n))
                            return nil
                        } catch { return .of(error) }
                    }
                }
                return await group.reduce(into: []) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 1)
            #expect(outcomes.filter { $0 == .tooManyRequests }.count == 11)
            #expect(await h.texts.texts(to: PhoneSignInTests.number).count == 1)
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseStore
import GatehouseTesting
import Testing

/// A number joins an existing account only through a signed-in request and its code, never by
/// guessing; a number another account holds is a conflict, told only to whoever has the code.
@Suite("Pool: adding a phone number to an account", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct PhoneLinkingTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    static let number = "+447700900123"

    @Test(arguments: TestDatabase.available)
    func aSignedInUserAddsANumberAndThenSignsInWithIt(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let tokens = try await h.confirmedUser()
            let principal = try await h.me(tokens)
            _ = try await h.profiles.view(for: principal, logger: h.logger)  // the profile exists already
            let delivery = try await h.phone.addNumber(principal: principal, phone: "+44 7700 900123", client: h.client, logger: h.logger)
            #expect(delivery.medium == "SMS")
            let texts = await h.texts.texts(to: Self.number)
            #expect(texts.map(\.kind) == ["link_phone"])
            let code = try require(await h.texts.latestCode(to: Self.number))
            // The code is bound to the number: presented with another number it is wrong.
            await #expect {
                try await h.phone.verifyNumber(principal: principal, phone: "+447700900124", code: code, client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .codeMismatch
            }
            try await h.phone.verifyNumber(principal: principal, phone: Self.number, code: code, client: h.client, logger: h.logger)
            let view = try await h.profiles.view(for: principal, logger: h.logger)
            #expect(view.profile.phone == Self.number && view.profile.phoneVerified && view.profile.email == "alice@example.com")
            #expect(view.identities.map(\.provider).sorted() == ["password", "phone"])

            h.clock.advance(by: 61)
            _ = try await PhoneSignInTests.send(h, Self.number)
            let byPhone = try await PhoneSignInTests.verify(h, Self.number, code: try await PhoneSignInTests.code(h, Self.number))
            #expect(byPhone.isNewUser == false)
            #expect(try await h.me(byPhone).sub == principal.sub)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aNumberAnotherAccountHoldsIsAConflictAndNothingChanges(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            _ = try await PhoneSignInTests.send(h, Self.number)
            let holder = try await PhoneSignInTests.verify(h, Self.number, code: try await PhoneSignInTests.code(h, Self.number))
            let other = try await h.me(try await h.confirmedUser("bob@example.com"))
            h.clock.advance(by: 61)
            _ = try await h.phone.addNumber(principal: other, phone: Self.number, client: h.client, logger: h.logger)
            let code = try require(await h.texts.latestCode(to: Self.number))
            await #expect {
                try await h.phone.verifyNumber(principal: other, phone: Self.number, code: code, client: h.client, logger: h.logger)
            } throws: {
                GatehouseError.Code.of($0) == .conflict
            }
            let bob = try await h.store.read { try await $0.user(id: other.sub) }
            #expect(bob?.phone == nil)
            #expect(try await h.store.read { try await $0.user(phone: Self.number) }?.id == (try await h.me(holder)).sub)
        }
    }

    @Test func deletingTheAccountFreesItsNumber() async throws {
        try await Self.apps.with { h in
            _ = try await PhoneSignInTests.send(h, Self.number)
            let first = try await PhoneSignInTests.verify(h, Self.number, code: try await PhoneSignInTests.code(h, Self.number))
            let firstSub = try await h.me(first).sub
            try await h.accounts.delete(for: try await h.me(first), client: h.client, logger: h.logger)
            h.clock.advance(by: 61)
            _ = try await PhoneSignInTests.send(h, Self.number)
            let second = try await PhoneSignInTests.verify(h, Self.number, code: try await PhoneSignInTests.code(h, Self.number))
            #expect(second.isNewUser == true)
            #expect(try await h.me(second).sub != firstSub)
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

extension ContractTests {
    /// The countries the contract app texts.
    static let phoneCountries = SMSCountryPolicy(allowedCountries: ["US", "CA", "GB"])

    /// Phone sign-in, adding a number, and the seed's `/api/v1/auth/otp/*`: their successes and the
    /// refusals a client can provoke.
    static func exercisePhone(_ client: any TestClientProtocol, app: TestApp, _ s: ContractSamples) async throws {
        let number = "+14155550100"
        #expect(try await s.send(client, .post, "/auth/phone/send", json: ["phone": .string(number)]).status == .ok)
        #expect(try await s.send(client, .post, "/auth/phone/send", json: ["phone": .string(number)]).status == .tooManyRequests)
        #expect(try await s.send(client, .post, "/auth/phone/send", json: ["phone": "4155550100"]).status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/phone/send", raw: "{}", contentType: "text/plain").status == .unsupportedMediaType)
        let big = #"{"phone":""# + String(repeating: "1", count: 8192) + #""}"#
        #expect(try await s.send(client, .post, "/auth/phone/send", raw: big).status == .contentTooLarge)
        #expect(try await s.send(client, .post, "/auth/phone/verify", json: ["phone": .string(number), "code": "000000"]).status == .badRequest)
        let code = try #require(await app.texts.latestCode(to: number))
        let signedIn = try await s.send(client, .post, "/auth/phone/verify", json: ["phone": .string(number), "code": .string(code)])
        #expect(signedIn.status == .ok)
        let bearer = signedIn.string("access_token")

        // A second account (by phone too) adds a number, then tries the first account's number.
        let other = "+447700900123"
        #expect(try await s.send(client, .post, "/api/v1/auth/otp/send", json: ["phone": .string(other)]).status == .ok)
        let otherCode = try #require(await app.texts.latestCode(to: other))
        #expect(try await s.send(client, .post, "/api/v1/auth/otp/verify", json: ["phone": .string(other)]).status == .badRequest)
        let compat = try await s.send(client, .post, "/api/v1/auth/otp/verify", json: ["phone": .string(other), "token": .string(otherCode)])
        #expect(compat.status == .ok)
        let otherBearer = compat.string("access_token")

        let added = "+14155550111"
        #expect(try await s.send(client, .post, "/me/phone", json: ["phone": .string(added)], bearer: bearer).status == .ok)
        #expect(try await s.send(client, .post, "/me/phone", json: ["phone": .string(added)]).status == .unauthorized)
        #expect(
            try await s.send(client, .post, "/me/phone/verify", json: ["phone": .string(added), "code": "000000"], bearer: bearer).status
                == .badRequest
        )
        let addedCode = try #require(await app.texts.latestCode(to: added))
        let profile = try await s.send(
            client,
            .post,
            "/me/phone/verify",
            json: ["phone": .string(added), "code": .string(addedCode)],
            bearer: bearer
        )
        #expect(profile.status == .ok)
        app.clock.advance(by: 61)  // past the number's one-a-minute cool-down
        #expect(try await s.send(client, .post, "/me/phone", json: ["phone": .string(added)], bearer: otherBearer).status == .ok)
        let takenCode = try #require(await app.texts.latestCode(to: added))
        let taken = try await s.send(
            client,
            .post,
            "/me/phone/verify",
            json: ["phone": .string(added), "code": .string(takenCode)],
            bearer: otherBearer
        )
        #expect(taken.status == .conflict)
        #expect(try await s.send(client, .post, "/me/phone/verify", json: ["phone": .string(added), "code": "1"]).status == .unauthorized)
    }
}

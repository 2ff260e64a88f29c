import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Every first factor of an account with an authenticator app answers the second step: the native
/// Google and Apple exchanges and phone sign-in, not only a password (those are in `mfa_clients.py`).
@Suite("Second factor: Google, Apple and phone sign-ins ask for it too", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SecondFactorPathsTests {
    @Test func socialAndPhoneFirstFactorsGetTheSecondStep() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) { $0.smsCountries = ContractTests.phoneCountries }
            try await app.router { client in
                // One account, reachable by Google, Apple and a phone number.
                let google = issuer.token(.google, audience: Clients.googleWeb, subject: "g-mfa", email: "mfa@gmail.com")
                let first = try await client.send(.post, "/auth/google", json: ["id_token": .string(google)])
                #expect(first.status == .ok)
                let bearer = first.string("access_token")
                let number = "+14155550123"
                #expect(try await client.send(.post, "/me/phone", json: ["phone": .string(number)], bearer: bearer).status == .ok)
                let linkCode = try #require(await app.texts.latestCode(to: number))
                #expect(
                    try await client.send(.post, "/me/phone/verify", json: ["phone": .string(number), "code": .string(linkCode)], bearer: bearer)
                        .status == .ok
                )
                let secret = try await client.send(.post, "/me/mfa/totp", bearer: bearer).string("secret")
                let confirm = try await client.send(
                    .post,
                    "/me/mfa/totp/verify",
                    json: ["code": .string(try ContractTests.totp(secret, app))],
                    bearer: bearer
                )
                #expect(confirm.status == .ok)

                let again = try await client.send(.post, "/auth/google", json: ["id_token": .string(google)])
                #expect(again.status == .forbidden && again.errorCode == "mfa_required", "Google: \(again.bodyText)")
                app.clock.advance(by: 61)
                #expect(try await client.send(.post, "/auth/phone/send", json: ["phone": .string(number)]).status == .ok)
                let smsCode = try #require(await app.texts.latestCode(to: number))
                let phone = try await client.send(.post, "/auth/phone/verify", json: ["phone": .string(number), "code": .string(smsCode)])
                #expect(phone.status == .forbidden && phone.errorCode == "mfa_required", "phone: \(phone.bodyText)")
                let token = try #require(phone["error"]?.objectValue?["mfa_token"]?.stringValue)
                app.clock.advance(by: 30)
                let done = try await client.send(
                    .post,
                    "/auth/mfa/verify",
                    json: ["mfa_token": .string(token), "code": .string(try ContractTests.totp(secret, app))]
                )
                #expect(done.status == .ok)
                let amr = try CompactJWS(parsing: done.string("access_token")).claims["amr"]?.arrayValue?.compactMap(\.stringValue)
                #expect(amr == ["sms", "otp", "mfa"], "\(String(describing: amr))")
            }
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Phone sign-in is not offered on Cognito (docs/phone-sign-in.md, "On Cognito"): every phone call answers 403
/// `provider_disabled` saying so, before any input is checked, any quota used or any text sent.
@Suite(
    "Cognito (moto): phone sign-in is not offered",
    .serialized,
    .enabled(if: MotoCognito.isAvailable),
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct CognitoPhoneTests {
    @Test func phoneSignInAnswers403ProviderDisabledOnCognitoBeforeAnyText() async throws {
        let moto = try #require(MotoCognito.shared)
        let app = try await TestApp.cognito(moto) { $0.smsCountries = SMSCountryPolicy(allowedCountries: ["US", "CA"]) }
        try await app.live { client in
            for (path, body) in [
                ("/auth/phone/send", ["phone": "+14155550123"]), ("/auth/phone/verify", ["phone": "+14155550123", "code": "123456"]),
                ("/auth/phone/send", ["phone": "not a number"]),
            ] as [(String, JSONValue)] {
                let reply = try await client.send(.post, path, json: body)
                #expect(reply.status == .forbidden && reply.errorCode == "provider_disabled", "\(path): \(reply.bodyText)")
                #expect(reply.bodyText.contains("Cognito"))
            }
            #expect(await app.texts.delivered.isEmpty)
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Issue 29 in Cognito mode: Cognito keeps no per-device session list (without device tracking) and
/// its attribute update cannot keep the email-change rules, so the four routes answer a clear 501
/// `not_supported` to a signed-in caller (and 401 to anyone else, as every protected route does).
@Suite(
    "Cognito (moto): the session list and email change are not supported",
    .serialized,
    .enabled(if: MotoCognito.isAvailable),
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct CognitoAccountSessionsTests {
    @Test func theRoutesAnswerNotSupported() async throws {
        let moto = try #require(MotoCognito.shared)
        let app = try await TestApp.cognito(moto, configure: CognitoProviderTests.relaxedMail)
        let email = CognitoProviderTests.email("lister")
        try await app.live { client in
            #expect(try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": "password1"]).status == .created)
            let code = try await moto.latestCode("signup", for: email)
            #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)]).status == .ok)
            let access = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"]).string("access_token")
            #expect(try await client.send(.get, "/me/sessions").status == .unauthorized)
            let calls: [Reply] = [
                try await client.send(.get, "/me/sessions", bearer: access),
                try await client.send(.delete, "/me/sessions/0193a000-0000-7000-8000-000000000000", bearer: access),
                try await client.send(.post, "/me/email", json: ["email": "other@example.com", "current_password": "password1"], bearer: access),
                try await client.send(.post, "/me/email/verify", json: ["code": "123456"], bearer: access),
            ]
            for reply in calls {
                #expect(reply.status == .notImplemented && reply.errorCode == "not_supported", "\(reply.status) \(reply.bodyText)")
                #expect(reply.bodyText.contains("Cognito"))
            }
            #expect(try await client.send(.get, "/me", bearer: access).string("email") == email, "nothing changed")
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

extension ContractTests {
    /// The seed 003 (Hero365) operations under `/api/v1`: their successes and the refusals a client can provoke.
    static func exerciseCompatAPI(_ client: any TestClientProtocol, app: TestApp, issuer: FakeIssuer, _ s: ContractSamples) async throws {
        let apple = issuer.token(.apple, audience: Clients.appleBundle, subject: "a-compat", email: "c@privaterelay.appleid.com")
        let appleBody: JSONValue = ["id_token": .string(apple), "user_identifier": "a-compat", "full_name": "Com Pat"]
        #expect(try await s.send(client, .post, "/api/v1/auth/apple/signin", json: appleBody).status == .ok)
        let mismatch: JSONValue = ["id_token": .string(apple), "user_identifier": "someone-else"]
        #expect(try await s.send(client, .post, "/api/v1/auth/apple/signin", json: mismatch).status == .unauthorized)
        #expect(try await s.send(client, .post, "/api/v1/auth/apple/signin", json: ["id_token": 1]).status == .badRequest)
        #expect(try await s.send(client, .post, "/api/v1/auth/apple/signin", raw: "{}", contentType: "text/plain").status == .unsupportedMediaType)

        let google = issuer.token(.google, audience: Clients.googleIOS, subject: "g-compat", email: "compat@gmail.com")
        let googleBody: JSONValue = [
            "id_token": .string(google), "access_token": "ya29.x", "email": "compat@gmail.com", "given_name": "Com", "family_name": "Pat",
            "picture_url": "https://example.com/p.jpg",
        ]
        let signedIn = try await s.send(client, .post, "/api/v1/auth/google/signin", json: googleBody)
        #expect(signedIn.status == .ok)
        #expect(try await s.send(client, .post, "/api/v1/auth/google/signin", json: ["id_token": "garbage"]).status == .unauthorized)
        let big = #"{"id_token":""# + String(repeating: "x", count: 8192) + #""}"#
        #expect(try await s.send(client, .post, "/api/v1/auth/google/signin", raw: big).status == .contentTooLarge)

        let email = "compat-contract@example.com"
        let password = "correct horse 9"
        let signUp = try await s.send(client, .post, "/api/v1/auth/signup", json: ["email": .string(email), "password": .string(password)])
        #expect(signUp.status == .created)
        #expect(try await s.send(client, .post, "/api/v1/auth/signup", json: ["email": "y@example.com", "password": "short"]).status == .badRequest)
        let early = try await s.send(client, .post, "/api/v1/auth/signin", json: ["email": .string(email), "password": .string(password)])
        #expect(early.status == .forbidden)
        let code = try #require(await app.mailer.latestCode(to: email, kind: "confirm_signup"))
        #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)]).status == .ok)
        let tokens = try await s.send(client, .post, "/api/v1/auth/signin", json: ["email": .string(email), "password": .string(password)])
        #expect(tokens.status == .ok)
        #expect(
            try await s.send(client, .post, "/api/v1/auth/signin", json: ["email": .string(email), "password": "wrong horse 9"]).status
                == .unauthorized
        )
        #expect(try await s.send(client, .post, "/api/v1/auth/signin", raw: "{").status == .badRequest)

        let refreshed = try await s.send(client, .post, "/api/v1/auth/refresh", json: ["refresh_token": .string(tokens.string("refresh_token"))])
        #expect(refreshed.status == .ok)
        #expect(try await s.send(client, .post, "/api/v1/auth/refresh", json: ["refresh_token": "nope"]).status == .unauthorized)
        #expect(try await s.send(client, .post, "/api/v1/auth/refresh", json: .object([:])).status == .badRequest)

        #expect(try await s.send(client, .get, "/api/v1/users/me", bearer: refreshed.string("access_token")).status == .ok)
        #expect(try await s.send(client, .get, "/api/v1/users/me", bearer: signedIn.string("access_token")).status == .ok)
        #expect(try await s.send(client, .get, "/api/v1/users/me").status == .unauthorized)
    }
}

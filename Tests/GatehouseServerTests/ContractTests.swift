import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// The contract, checked from both ends: every documented operation is called on the real app,
/// with its success and its documented refusals, and every answer (status, content type, body) is
/// validated against `openapi.yaml`'s schemas by `Scripts/validate_contract.py` (jsonschema); the
/// request types' declared fields (names, required, length limits) are compared with the
/// document's request schemas. The document, the routes and the answers cannot drift apart silently.
@Suite("Contract: real answers against openapi.yaml", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct ContractTests {
    typealias Web = AppleWebFlowTests

    @Test func everyDocumentedExchangeMatchesTheDocument() async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer) {
                $0.maxBodySize = 4096
                $0.compatAPIV1 = true
                $0.smsCountries = Self.phoneCountries
                $0.passkeys.rpID = Self.passkeyRP.id
                $0.passkeys.origins = [Self.passkeyRP.origin]
            }
            let samples = ContractSamples()
            let yaml = try await app.live { client in
                try await Self.exercise(client, app: app, issuer: issuer, samples)
                return try await client.send(.get, "/openapi.yaml").bodyText
            }
            let directory = FileManager.default.temporaryDirectory.appendingPathComponent("contract-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: directory) }
            let document = directory.appendingPathComponent("openapi.yaml")
            let collected = directory.appendingPathComponent("samples.json")
            try yaml.write(to: document, atomically: true, encoding: .utf8)
            try Data(await samples.document(served: app.built.routes.all).serialized()).write(to: collected)
            if let result = try await PythonScript.run("validate_contract.py", arguments: [document.path, collected.path], requiring: "jsonschema") {
                #expect(result.status == 0, "\(result.output)")
            }
        }
    }

    /// Every documented operation: its success and the refusals a client can provoke.
    static func exercise(_ client: any TestClientProtocol, app: TestApp, issuer: FakeIssuer, _ s: ContractSamples) async throws {
        // Discovery, operations and the web page.
        for path in [
            "/", "/assets/app.js", "/health", "/ready", "/metrics", "/openapi.yaml", "/.well-known/jwks.json",
            "/.well-known/openid-configuration",
        ] {
            let reply = try await s.send(client, .get, path, template: path == "/assets/app.js" ? "/assets/{file}" : path)
            #expect(reply.status == .ok, "\(path)")
        }
        #expect(try await s.send(client, .get, "/assets/nope.js", template: "/assets/{file}").status == .notFound)

        // Sign-up and its refusals.
        let email = "contract@example.com"
        let password = "correct horse 9"
        let signUpBody: JSONValue = ["email": .string(email), "password": .string(password), "full_name": "Con Tract"]
        let signUp = try await s.send(client, .post, "/auth/signup", json: signUpBody)
        #expect(signUp.status == .created)
        #expect(try await s.send(client, .post, "/auth/signup", raw: "{").status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/signup", json: ["email": "x@example.com", "password": "short"]).status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/signup", raw: "{}", contentType: "text/plain").status == .unsupportedMediaType)
        let big = #"{"email":"a@example.com","password":""# + String(repeating: "x", count: 8192) + #""}"#
        #expect(try await s.send(client, .post, "/auth/signup", raw: big).status == .contentTooLarge)
        #expect(try await s.send(client, .post, "/auth/signin", json: ["email": .string(email), "password": .string(password)]).status == .forbidden)
        app.clock.advance(by: 61)  // past the resend cooldown
        #expect(try await s.send(client, .post, "/auth/resend-code", json: ["email": .string(email)]).status == .ok)
        #expect(try await s.send(client, .post, "/auth/resend-code", json: ["email": 1]).status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/confirm", json: ["email": .string(email), "code": "000000"]).status == .badRequest)
        let code = try #require(await app.mailer.latestCode(to: email, kind: "confirm_signup"))
        #expect(try await s.send(client, .post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)]).status == .ok)

        // Sign-in, refresh, the profile.
        #expect(
            try await s.send(client, .post, "/auth/signin", json: ["email": .string(email), "password": "wrong horse 9"]).status == .unauthorized
        )
        #expect(try await s.send(client, .post, "/auth/signin", json: ["email": .string(email)]).status == .badRequest)
        let tokens = try await s.send(client, .post, "/auth/signin", json: ["email": .string(email), "password": .string(password)])
        #expect(tokens.status == .ok)
        let refreshed = try await s.send(client, .post, "/auth/refresh", json: ["refresh_token": .string(tokens.string("refresh_token"))])
        #expect(refreshed.status == .ok)
        #expect(try await s.send(client, .post, "/auth/refresh", json: ["refresh_token": "nope"]).status == .unauthorized)
        #expect(try await s.send(client, .post, "/auth/refresh", json: .object([:])).status == .badRequest)
        let access = refreshed.string("access_token")
        #expect(try await s.send(client, .get, "/me", bearer: access).status == .ok)
        #expect(try await s.send(client, .get, "/me").status == .unauthorized)
        #expect(try await s.send(client, .patch, "/me", json: ["full_name": "New Name"], bearer: access).status == .ok)
        #expect(try await s.send(client, .patch, "/me", json: ["full_name": .null], bearer: access).status == .ok)
        #expect(try await s.send(client, .patch, "/me", json: ["full_name": 5], bearer: access).status == .badRequest)
        #expect(try await s.send(client, .patch, "/me", raw: "{}", contentType: "text/plain", bearer: access).status == .unsupportedMediaType)
        #expect(try await s.send(client, .patch, "/me", json: .object([:])).status == .unauthorized)

        // The password: change, forget, reset.
        let newPassword = "battery staple 7"
        let anonymous = try await s.send(client, .post, "/auth/password/change", json: ["current_password": "x", "new_password": "y"])
        #expect(anonymous.status == .unauthorized)
        let incomplete = try await s.send(client, .post, "/auth/password/change", json: ["current_password": .string(password)], bearer: access)
        #expect(incomplete.status == .badRequest)
        let changed = try await s.send(
            client,
            .post,
            "/auth/password/change",
            json: ["current_password": .string(password), "new_password": .string(newPassword)],
            bearer: access
        )
        #expect(changed.status == .ok)
        app.clock.advance(by: 61)
        #expect(try await s.send(client, .post, "/auth/password/forgot", json: ["email": .string(email)]).status == .ok)
        #expect(try await s.send(client, .post, "/auth/password/forgot", raw: "[]").status == .badRequest)
        let resetCode = try #require(await app.mailer.latestCode(to: email, kind: "reset_password"))
        let wrongCode = try await s.send(
            client,
            .post,
            "/auth/password/reset",
            json: ["email": .string(email), "code": "000000", "new_password": "another horse 5"]
        )
        #expect(wrongCode.status == .badRequest)
        let reset = try await s.send(
            client,
            .post,
            "/auth/password/reset",
            json: ["email": .string(email), "code": .string(resetCode), "new_password": "another horse 5"]
        )
        #expect(reset.status == .ok)

        // Signing out.
        let session = try await s.send(client, .post, "/auth/signin", json: ["email": .string(email), "password": "another horse 5"])
        let signOut = try await s.send(client, .post, "/auth/signout", json: ["refresh_token": .string(session.string("refresh_token"))])
        #expect(signOut.status == .noContent)
        #expect(try await s.send(client, .post, "/auth/signout", raw: "{").status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/signout/all").status == .unauthorized)
        let other = try await s.send(client, .post, "/auth/signin", json: ["email": .string(email), "password": "another horse 5"])
        #expect(try await s.send(client, .post, "/auth/signout/all", bearer: other.string("access_token")).status == .noContent)

        // Native social sign-in.
        let googleToken = issuer.token(.google, audience: Clients.googleWeb, subject: "g-contract", email: "g@example.com")
        #expect(try await s.send(client, .post, "/auth/google", json: ["id_token": .string(googleToken), "full_name": "Gee"]).status == .ok)
        #expect(try await s.send(client, .post, "/auth/google", json: ["id_token": "garbage"]).status == .unauthorized)
        #expect(try await s.send(client, .post, "/auth/google", json: ["id_token": 1]).status == .badRequest)
        let appleToken = issuer.token(.apple, audience: Clients.appleBundle, subject: "a-contract", email: "a@privaterelay.appleid.com")
        #expect(try await s.send(client, .post, "/auth/apple", json: ["identity_token": .string(appleToken)]).status == .ok)
        #expect(try await s.send(client, .post, "/auth/apple", json: ["identity_token": "garbage"]).status == .unauthorized)
        #expect(try await s.send(client, .post, "/auth/apple", raw: "{}", contentType: "text/plain").status == .unsupportedMediaType)

        // Apple's web flow.
        let pkce = Web.PKCE()
        let authorize = "/auth/apple/authorize?code_challenge=\(pkce.challenge)&code_challenge_method=S256"
        #expect(try await s.send(client, .get, authorize).status == .found)
        #expect(try await s.send(client, .get, "/auth/apple/authorize").status == .badRequest)
        let callback = try await s.send(
            client,
            .post,
            "/auth/apple/callback",
            raw: "state=x&code=y",
            contentType: "application/x-www-form-urlencoded"
        )
        #expect(callback.status == .ok)
        let handoff = try await s.send(client, .post, "/auth/handoff", json: ["code": "x", "code_verifier": .string(pkce.verifier)])
        #expect(handoff.status == .unauthorized)
        #expect(try await s.send(client, .post, "/auth/handoff", json: ["code": "x"]).status == .badRequest)
        #expect(try await s.send(client, .post, "/auth/apple/notifications", json: ["payload": "x.y.z"]).status == .ok)

        // The seed 003 (Hero365) API under /api/v1.
        try await exerciseCompatAPI(client, app: app, issuer: issuer, s)
        try await exercisePhone(client, app: app, s)
        try await exerciseSecondFactor(client, app: app, s)
        try await exerciseAccountSessions(client, app: app, s)
        try await exerciseAdmin(client, app: app, s)
        try await exerciseWebhooks(client, app: app, s)
        try await exercisePasskeys(client, app: app, s)

        // Last, the account goes.
        let last = try await s.send(client, .post, "/auth/signin", json: ["email": .string(email), "password": "another horse 5"])
        #expect(try await s.send(client, .delete, "/me", bearer: last.string("access_token")).status == .noContent)
        #expect(try await s.send(client, .delete, "/me").status == .unauthorized)
    }
}

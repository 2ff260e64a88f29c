import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

extension ContractTests {
    /// The admin API: every operation's success and the refusals a caller can provoke (no key, a user's
    /// token, a browser's request, an unknown user, a conflict, a malformed body or query).
    static func exerciseAdmin(_ client: any TestClientProtocol, app: TestApp, _ s: ContractSamples) async throws {
        let key = try await app.built.useCases.administration.createKey(name: "contract")
        let user = try await client.signedIn(app, email: "admin-contract@example.com").string("access_token")
        #expect(try await s.send(client, .get, "/admin/users").status == .unauthorized)
        #expect(try await s.send(client, .get, "/admin/users", bearer: user).status == .unauthorized)
        #expect(try await s.send(client, .get, "/admin/users", bearer: key, headers: [.origin: "https://elsewhere.example"]).status == .forbidden)
        #expect(try await s.send(client, .get, "/admin/users?limit=0", bearer: key).status == .badRequest)
        let found = try await s.send(client, .get, "/admin/users?email=admin-contract%40example.com", bearer: key)
        #expect(found.status == .ok)
        let sub = try #require(found["users"]?.arrayValue?.first?.objectValue?["sub"]?.stringValue)
        let one = "/admin/users/{sub}"
        #expect(try await s.send(client, .get, "/admin/users/\(sub)", template: one, bearer: key).status == .ok)
        #expect(try await s.send(client, .get, "/admin/users/nobody", template: one, bearer: key).status == .notFound)
        #expect(try await s.send(client, .get, "/admin/users/\(sub)", template: one).status == .unauthorized)
        #expect(
            try await s.send(client, .get, "/admin/users/\(sub)", template: one, bearer: key, headers: [.origin: "https://x.example"]).status
                == .forbidden
        )

        let created = try await s.send(client, .post, "/admin/users", json: ["email": "made@example.com", "name": "Made"], bearer: key)
        #expect(created.status == .created)
        #expect(try await s.send(client, .post, "/admin/users", json: ["email": "made@example.com"], bearer: key).status == .conflict)
        #expect(try await s.send(client, .post, "/admin/users", json: ["email": 7], bearer: key).status == .badRequest)
        #expect(try await s.send(client, .post, "/admin/users", raw: "{}", contentType: "text/plain", bearer: key).status == .unsupportedMediaType)
        let big = #"{"email":"a@example.com","name":""# + String(repeating: "x", count: 8192) + #""}"#
        #expect(try await s.send(client, .post, "/admin/users", raw: big, bearer: key).status == .contentTooLarge)
        #expect(try await s.send(client, .post, "/admin/users", json: ["email": "z@example.com"]).status == .unauthorized)
        #expect(
            try await s.send(client, .post, "/admin/users", json: ["email": "z@example.com"], bearer: key, headers: [.origin: "https://x.example"])
                .status == .forbidden
        )
        let made = created.string("sub")

        #expect(try await s.send(client, .patch, "/admin/users/\(made)", template: one, json: ["name": nil], bearer: key).status == .ok)
        #expect(try await s.send(client, .patch, "/admin/users/\(made)", template: one, json: ["disabled": 1], bearer: key).status == .badRequest)
        #expect(try await s.send(client, .patch, "/admin/users/nobody", template: one, json: ["disabled": true], bearer: key).status == .notFound)
        #expect(
            try await s.send(client, .patch, "/admin/users/\(made)", template: one, raw: "{}", contentType: "text/plain", bearer: key).status
                == .unsupportedMediaType
        )
        let bigPatch = #"{"name":""# + String(repeating: "x", count: 8192) + #""}"#
        #expect(try await s.send(client, .patch, "/admin/users/\(made)", template: one, raw: bigPatch, bearer: key).status == .contentTooLarge)
        #expect(try await s.send(client, .patch, "/admin/users/\(made)", template: one, json: ["disabled": true]).status == .unauthorized)
        #expect(
            try await s.send(
                client,
                .patch,
                "/admin/users/\(made)",
                template: one,
                json: ["disabled": true],
                bearer: key,
                headers: [.origin: "https://x.example"]
            ).status == .forbidden
        )

        for (action, template) in [
            ("disable", "/admin/users/{sub}/disable"), ("enable", "/admin/users/{sub}/enable"), ("signout", "/admin/users/{sub}/signout"),
        ] {
            #expect(try await s.send(client, .post, "/admin/users/\(sub)/\(action)", template: template, bearer: key).status == .ok, "\(action)")
            #expect(try await s.send(client, .post, "/admin/users/nobody/\(action)", template: template, bearer: key).status == .notFound)
            #expect(try await s.send(client, .post, "/admin/users/\(sub)/\(action)", template: template).status == .unauthorized)
            #expect(
                try await s.send(
                    client,
                    .post,
                    "/admin/users/\(sub)/\(action)",
                    template: template,
                    bearer: key,
                    headers: [.origin: "https://x.example"]
                ).status == .forbidden
            )
        }
        #expect(try await s.send(client, .delete, "/admin/users/\(made)", template: one, bearer: key).status == .noContent)
        #expect(try await s.send(client, .delete, "/admin/users/\(made)", template: one, bearer: key).status == .notFound)
        #expect(try await s.send(client, .delete, "/admin/users/\(made)", template: one).status == .unauthorized)
        #expect(
            try await s.send(client, .delete, "/admin/users/\(made)", template: one, bearer: key, headers: [.origin: "https://x.example"]).status
                == .forbidden
        )

        #expect(try await s.send(client, .get, "/admin/audit?limit=5", bearer: key).status == .ok)
        #expect(try await s.send(client, .get, "/admin/audit?event=nope", bearer: key).status == .badRequest)
        #expect(try await s.send(client, .get, "/admin/audit").status == .unauthorized)
        #expect(try await s.send(client, .get, "/admin/audit", bearer: key, headers: [.origin: "https://x.example"]).status == .forbidden)
        #expect(try await s.send(client, .get, "/admin/users", bearer: key, headers: [.origin: "https://x.example"]).status == .forbidden)
    }
}

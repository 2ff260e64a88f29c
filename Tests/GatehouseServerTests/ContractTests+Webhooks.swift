import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

extension ContractTests {
    /// `/admin/webhooks`: list, add (secret once) and remove, and what a caller can get wrong (no key, a
    /// browser's request, a bad URL, an address that is not public, an unknown event, a wrong type, a
    /// body too large, an unknown id).
    static func exerciseWebhooks(_ client: any TestClientProtocol, app: TestApp, _ s: ContractSamples) async throws {
        let key = try await app.built.useCases.administration.createKey(name: "contract-webhooks")
        let browser: HTTPFields = [.origin: "https://x.example"]
        let listed = try await s.send(client, .get, "/admin/webhooks", bearer: key)
        #expect(listed.status == .ok)
        #expect(try await s.send(client, .get, "/admin/webhooks").status == .unauthorized)
        #expect(try await s.send(client, .get, "/admin/webhooks", bearer: key, headers: browser).status == .forbidden)

        let hook: JSONValue = ["url": "https://93.184.215.14/hooks/gatehouse", "events": "user.created,user.deleted"]
        let added = try await s.send(client, .post, "/admin/webhooks", json: hook, bearer: key)
        #expect(added.status == .created, "\(added.bodyText)")
        let secret = added.string("secret")
        #expect(secret.hasPrefix("whsec_") && WebhookSignature.key(of: secret)?.count == 32)
        let id = added.string("id")
        let again = try await s.send(client, .get, "/admin/webhooks", bearer: key)
        #expect(again.bodyText.contains(id) && !again.bodyText.contains(secret))
        for (url, events) in [
            ("http://93.184.215.14/x", "user.created"), ("https://10.1.2.3/x", "user.created"), ("https://169.254.169.254/x", "user.created"),
            ("https://[::1]/x", "user.created"), ("https://u:p@93.184.215.14/x", "user.created"), ("ftp://93.184.215.14/", "user.created"),
            ("https://93.184.215.14/x", "user.exploded"), ("https://93.184.215.14/x", ""), ("https://93.184.215.14/x", ","),
        ] {
            let refused = try await s.send(client, .post, "/admin/webhooks", json: ["url": .string(url), "events": .string(events)], bearer: key)
            #expect(refused.status == .badRequest, "\(url) \(events)")
        }
        #expect(try await s.send(client, .post, "/admin/webhooks", json: ["url": 7, "events": "user.created"], bearer: key).status == .badRequest)
        #expect(
            try await s.send(client, .post, "/admin/webhooks", json: ["url": "https://93.184.215.14/x", "events": ["user.created"]], bearer: key)
                .status == .badRequest
        )
        #expect(try await s.send(client, .post, "/admin/webhooks", raw: "{}", contentType: "text/plain", bearer: key).status == .unsupportedMediaType)
        let big = #"{"url":"https://93.184.215.14/"# + String(repeating: "x", count: 8192) + #"","events":"user.created"}"#
        #expect(try await s.send(client, .post, "/admin/webhooks", raw: big, bearer: key).status == .contentTooLarge)
        #expect(try await s.send(client, .post, "/admin/webhooks", json: hook).status == .unauthorized)
        #expect(try await s.send(client, .post, "/admin/webhooks", json: hook, bearer: key, headers: browser).status == .forbidden)

        let one = "/admin/webhooks/{id}"
        #expect(try await s.send(client, .delete, "/admin/webhooks/\(id)", template: one).status == .unauthorized)
        #expect(try await s.send(client, .delete, "/admin/webhooks/\(id)", template: one, bearer: key, headers: browser).status == .forbidden)
        #expect(try await s.send(client, .delete, "/admin/webhooks/\(id)", template: one, bearer: key).status == .noContent)
        #expect(try await s.send(client, .delete, "/admin/webhooks/\(id)", template: one, bearer: key).status == .notFound)
    }
}

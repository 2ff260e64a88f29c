import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseTesting
import HummingbirdTesting
import SQLKit
import Testing

@testable import GatehouseServer
@testable import GatehouseStore

/// Webhooks (issue 30 part 1) against a real receiver on loopback that verifies every delivery with
/// the Standard Webhooks reference library: each event queued with its change, signed, retried with the
/// same `webhook-id` until it is answered, never a secret in the payload, no redirect followed, no
/// non-public address called unless allowed, and a receiver that hangs never delays a sign-in.
@Suite("Webhooks: signed deliveries to a real receiver", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct WebhookDeliveryTests {
    static func app(_ database: TestDatabase, timeout: TimeInterval = 5) async throws -> TestApp {
        try await TestApp.make(database: database) { c in
            c.webhookAllowPrivate = true
            c.webhookTimeout = timeout
            c.messageDelivery.retryBaseDelay = 1
        }
    }

    /// Adds an endpoint through the admin API and hands its secret to the receiver.
    static func add(
        _ client: any TestClientProtocol,
        _ app: TestApp,
        _ receiver: WebhookReceiver,
        path: String,
        events: String
    ) async throws -> String {
        let key = try await app.built.useCases.administration.createKey(name: "hooks-\(UUID().uuidString.prefix(8))")
        let added = try await client.send(
            .post,
            "/admin/webhooks",
            json: ["url": .string(receiver.url + path), "events": .string(events)],
            bearer: key
        )
        #expect(added.status == .created, "\(added.bodyText)")
        try receiver.use(secret: added.string("secret"))
        return added.string("id")
    }

    static func queue(_ app: TestApp) async throws -> [(state: String, attempts: Int, error: String?)] {
        try await app.built.store.readSQL { db in
            try await db.raw("SELECT state, attempts, last_error FROM gh_messages WHERE channel = 'webhook' ORDER BY id").all().map {
                (
                    try $0.decode(column: "state", as: String.self), try $0.decode(column: "attempts", as: Int.self),
                    try $0.decode(column: "last_error", as: String?.self)
                )
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func eachEventArrivesSignedAndIsRetriedWithTheSameID(_ database: TestDatabase) async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let app = try await Self.app(database)
        try await app.live { client in
            _ = try await Self.add(client, app, receiver, path: "/fail-once/hooks", events: "*")
            let tokens = try await client.signedIn(app, email: "hooked@example.com")
            let sub = try #require(try await client.send(.get, "/me", bearer: tokens.string("access_token"))["sub"]?.stringValue)
            let signOut = try await client.send(.post, "/auth/signout", json: ["refresh_token": .string(tokens.string("refresh_token"))])
            #expect(signOut.status == .noContent)
            await app.built.messageDelivery.waitUntilIdle()
            // Every first attempt got a 500: all are queued again, none lost.
            let first = try receiver.deliveries()
            #expect(Set(first.map(\.type)) == ["user.created", "user.confirmed", "user.signed_in", "session.revoked"], "\(first.map(\.type))")
            #expect(try await Self.queue(app).allSatisfy { $0.state == "queued" && $0.attempts == 1 && $0.error?.contains("500") == true })
            app.clock.advance(by: 10)
            await app.built.messageDelivery.waitUntilIdle()
            let all = try receiver.deliveries()
            #expect(all.count == 2 * first.count)
            #expect(try await Self.queue(app).allSatisfy { $0.state == "sent" && $0.attempts == 2 })
            for delivery in all {
                #expect(delivery.verified, "the reference library accepts it: \(delivery.error ?? "")")
                #expect(delivery.id.hasPrefix("msg_") && delivery.signature.hasPrefix("v1,"))
                #expect(delivery.data["sub"]?.stringValue == sub)
                for secret in [tokens.string("access_token"), tokens.string("refresh_token"), tokens.string("id_token"), "correct horse 9"] {
                    #expect(!secret.isEmpty && !delivery.body.contains(secret), "no token or password in a payload")
                }
                #expect(!delivery.body.contains("code") && !delivery.body.contains("password_hash") && !delivery.body.contains("whsec_"))
            }
            // Each id twice (the 500, then the 200), with the same body; the retry's timestamp is its own.
            for id in Set(all.map(\.id)) {
                let attempts = all.filter { $0.id == id }
                #expect(attempts.count == 2 && attempts[0].body == attempts[1].body)
                #expect(Int(attempts[1].timestamp)! > Int(attempts[0].timestamp)!)
            }
            #expect(all.first { $0.type == "user.created" }?.data["email"]?.stringValue == "hooked@example.com")
            #expect(all.first { $0.type == "user.signed_in" }?.data["method"]?.stringValue == "password")
        }
    }

    @Test(arguments: TestDatabase.available)
    func aRedirectIsNotFollowedAndARemovedEndpointGetsNothing(_ database: TestDatabase) async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let app = try await Self.app(database)
        try await app.live { client in
            let id = try await Self.add(client, app, receiver, path: "/redirect/hooks", events: "user.signed_in")
            _ = try await client.signedIn(app, email: "redirected@example.com")
            await app.built.messageDelivery.waitUntilIdle()
            let deliveries = try receiver.deliveries()
            #expect(deliveries.map(\.path) == ["/redirect/hooks"], "the redirect's target is never called")
            let queued = try await Self.queue(app)
            #expect(queued.count == 1 && queued[0].state == "queued" && queued[0].error?.contains("redirect") == true)
            // Removed: what is queued is dead-lettered, and nothing new is queued.
            try await app.built.useCases.administration.webhooks.remove(id: id)
            app.clock.advance(by: 10)
            await app.built.messageDelivery.waitUntilIdle()
            _ = try await client.send(.post, "/auth/signin", json: ["email": "redirected@example.com", "password": "correct horse 9"])
            await app.built.messageDelivery.waitUntilIdle()
            #expect(try receiver.deliveries().count == 1)
            #expect(try await Self.queue(app).map(\.state) == ["dead"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func aHangingReceiverNeverDelaysASignIn(_ database: TestDatabase) async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        // The receiver hangs past a 20 s delivery timeout; a sign-in that waited for it would take 20 s, so a
        // 10 s bound tells the two apart on a loaded machine too (CI's whole run once took 4.02 s for one
        // sign-in, with its password hash, beside every other suite).
        let app = try await Self.app(database, timeout: 20)
        try await app.live { client in
            _ = try await Self.add(client, app, receiver, path: "/hang/hooks", events: "user.signed_in")
            _ = try await client.signedIn(app, email: "patient@example.com")
            // Deliveries hang in the background (the dispatcher runs them) while the user signs in again.
            let background = Task { try? await app.built.messageDelivery.deliverDue() }
            for _ in 0..<4 {
                let started = ContinuousClock.now
                let signIn = try await client.send(.post, "/auth/signin", json: ["email": "patient@example.com", "password": "correct horse 9"])
                #expect(signIn.status == .ok)
                #expect(ContinuousClock.now - started < .seconds(10), "a sign-in does not wait for the receiver")
                _ = Task { try? await app.built.messageDelivery.deliverDue() }
            }
            _ = await background.value
            await app.built.messageDelivery.waitUntilIdle()
            #expect(try receiver.deliveries().count >= 1, "the receiver was called")
            let queued = try await Self.queue(app)
            #expect(queued.count == 5 && queued.allSatisfy { $0.state == "queued" }, "each timed-out delivery is retried later")
            #expect(queued.contains { $0.error?.contains("imeout") == true || $0.error?.contains("deadline") == true }, "\(queued.map(\.error))")
        }
    }

    @Test(arguments: TestDatabase.available)
    func nonPublicAddressesAreRefusedAtAddAndAtSendTime(_ database: TestDatabase) async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let strict = try await TestApp.make(database: database)
        try await strict.router { client in
            let key = try await strict.built.useCases.administration.createKey(name: "strict")
            for url in [receiver.url + "/ok", "http://localhost:1/x", "https://10.0.0.8/x", "https://[fe80::1]/x", "https://169.254.169.254/latest"] {
                let refused = try await client.send(.post, "/admin/webhooks", json: ["url": .string(url), "events": "*"], bearer: key)
                #expect(refused.status == .badRequest && refused.errorCode == "invalid_request", "\(url)")
            }
            #expect(try await strict.built.useCases.administration.webhooks.endpoints().isEmpty)
        }
        // Added while allowed, then sent by a channel that does not allow it: refused before connecting.
        let app = try await Self.app(database)
        try await app.router { client in
            _ = try await Self.add(client, app, receiver, path: "/ok/hooks", events: "*")
            let endpoint = try #require(try await app.built.useCases.administration.webhooks.endpoints().first)
            let channel = WebhookChannel(
                store: app.built.store,
                webhooks: app.built.useCases.administration.webhooks,
                addresses: WebhookAddresses(allowPrivate: false),
                upstream: UpstreamHTTPClient(),
                timeout: 2
            )
            let delivery = QueuedWebhook(endpointID: endpoint.id, event: .userCreated, body: #"{"type":"user.created"}"#)
            await #expect(throws: DeliveryError.self) { try await channel.send(delivery, webhookID: "msg_x", at: Date()) }
            #expect(try receiver.deliveries().isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aChangeThatDoesNotCommitQueuesNoWebhook(_ database: TestDatabase) async throws {
        let receiver = try WebhookReceiver()
        defer { receiver.stop() }
        let app = try await Self.app(database)
        try await app.live { client in
            _ = try await Self.add(client, app, receiver, path: "/ok/hooks", events: "user.disabled")
            let key = try await app.built.useCases.administration.createKey(name: "atomic-hooks")
            let tokens = try await client.signedIn(app, email: "atomic@example.com")
            let sub = try #require(try await client.send(.get, "/me", bearer: tokens.string("access_token"))["sub"]?.stringValue)
            // Disabling writes the flag, its audit row and its webhook, then ends the sessions: that last step fails.
            try await AuditLogTests.failSessionUpdates(app.built.store, database)
            let failed = try await client.send(.post, "/admin/users/\(sub)/disable", bearer: key)
            #expect(failed.status != .ok)
            #expect(try await Self.queue(app).isEmpty, "no webhook for a change that did not commit")
            try await app.built.store.writeSQL { db in
                try await db.raw(database == .sqlite ? "DROP TRIGGER gh_test_fail" : "DROP TRIGGER gh_test_fail ON gh_sessions").run()
            }
            #expect(try await client.send(.post, "/admin/users/\(sub)/disable", bearer: key).status == .ok)
            await app.built.messageDelivery.waitUntilIdle()
            #expect(try await Self.queue(app).map(\.state) == ["sent"])
            let delivered = try receiver.deliveries()
            #expect(delivered.map(\.type) == ["user.disabled"] && delivered[0].data["email"]?.stringValue == "atomic@example.com")
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// The admin API (issue 29) over a real socket on each store: an operator finds, reads, disables,
/// signs out, enables, creates, changes and deletes users with a key; user tokens, malformed, unknown
/// and revoked keys and browsers' requests are refused; search cannot become a pattern; pages neither
/// skip nor repeat while users sign up.
@Suite("Admin API: keys, users, refusals, pagination", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AdminAPITests {
    static let password = "correct horse 9"

    @Test(arguments: TestDatabase.available)
    func anOperatorFindsDisablesSignsOutAndDeletesAUser(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database)
        let administration = app.built.useCases.administration
        try await app.live { client in
            let key = try await administration.createKey(name: "ci")
            let alice = try await client.signedIn(app, email: "alice@example.com")
            let aliceToken = alice.string("access_token")
            #expect(try await client.send(.get, "/me", bearer: aliceToken).status == .ok)

            let found = try await client.send(.get, "/admin/users?email=ALICE%40example.com", bearer: key)
            #expect(found.status == .ok, "\(found.bodyText)")
            let users = try #require(found["users"]?.arrayValue)
            #expect(users.count == 1 && found["next_cursor"] == .null)
            let sub = try #require(users.first?.objectValue?["sub"]?.stringValue)
            #expect(users.first?.objectValue?["disabled"] == .bool(false))

            let shown = try await client.send(.get, "/admin/users/\(sub)", bearer: key)
            #expect(shown.status == .ok)
            #expect(shown["sessions"]?.objectValue?["active"] == .number(1))
            #expect(shown["identities"]?.arrayValue?.first?.objectValue?["provider"] == .string("password"))
            #expect(shown["mfa"]?.objectValue?["totp"] == .bool(false))

            // Disabled: the token fails at once, a right password gets the one clear error, a wrong one
            // the usual refusal (so the state is told only to someone who knows the password).
            let disabled = try await client.send(.post, "/admin/users/\(sub)/disable", bearer: key)
            #expect(disabled.status == .ok && disabled["disabled"] == .bool(true))
            #expect(try await client.send(.get, "/me", bearer: aliceToken).status == .unauthorized)
            #expect(
                try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(alice.string("refresh_token"))]).status == .unauthorized
            )
            let refused = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": .string(Self.password)])
            #expect(refused.status == .forbidden && refused.errorCode == "user_disabled", "\(refused.bodyText)")
            let wrong = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "wrong horse 9"])
            #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_credentials")

            #expect(try await client.send(.post, "/admin/users/\(sub)/enable", bearer: key)["disabled"] == .bool(false))
            let again = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": .string(Self.password)])
            #expect(again.status == .ok)

            let signedOut = try await client.send(.post, "/admin/users/\(sub)/signout", bearer: key)
            #expect(signedOut["sessions_ended"] == .number(1))
            #expect(try await client.send(.get, "/me", bearer: again.string("access_token")).status == .unauthorized)

            // Create, change and delete.
            let created = try await client.send(
                .post,
                "/admin/users",
                json: ["email": "bob@example.com", "password": "bob horse 99", "name": "Bob"],
                bearer: key
            )
            #expect(created.status == .created && created["confirmed"] == .bool(true) && created["email_verified"] == .bool(true))
            let bob = created.string("sub")
            let bobIn = try await client.send(.post, "/auth/signin", json: ["email": "bob@example.com", "password": "bob horse 99"])
            #expect(bobIn.status == .ok)
            let dup = try await client.send(.post, "/admin/users", json: ["email": "Bob@Example.com"], bearer: key)
            #expect(dup.status == .conflict)
            let weak = try await client.send(.post, "/admin/users", json: ["email": "carol@example.com", "password": "password"], bearer: key)
            #expect(weak.status == .badRequest && weak.errorCode == "invalid_password")
            let patched = try await client.send(.patch, "/admin/users/\(bob)", json: ["name": "Robert", "email_verified": false], bearer: key)
            #expect(patched["name"] == .string("Robert") && patched["email_verified"] == .bool(false))
            #expect(try await client.send(.patch, "/admin/users/\(bob)", json: [:], bearer: key).status == .badRequest)
            #expect(try await client.send(.patch, "/admin/users/\(bob)", json: ["disabled": "yes"], bearer: key).status == .badRequest)
            #expect(try await client.send(.patch, "/admin/users/\(bob)", json: ["is_superuser": true], bearer: key).status == .badRequest)
            #expect(try await client.send(.delete, "/admin/users/\(bob)", bearer: key).status == .noContent)
            #expect(try await client.send(.get, "/admin/users/\(bob)", bearer: key).status == .notFound)
            #expect(try await client.send(.get, "/me", bearer: bobIn.string("access_token")).status == .unauthorized)
            #expect(try await client.send(.delete, "/admin/users/\(bob)", bearer: key).status == .notFound)
            #expect(try await client.send(.post, "/admin/users/no-such-user/disable", bearer: key).status == .notFound)

            // Every action is in the audit log, attributed to the key, with the request id.
            let audit = try await client.send(.get, "/admin/audit?limit=500", bearer: key)
            let entries = (audit["entries"]?.arrayValue ?? []).compactMap(\.objectValue)
            func events(of user: String) -> [String] {
                entries.filter { $0["user_id"]?.stringValue == user }.compactMap { $0["event"]?.stringValue }
            }
            for event in ["sign_in", "user_disabled", "user_enabled", "user_signed_out", "admin_read"] {
                #expect(events(of: sub).contains(event), "\(event) for alice: \(events(of: sub))")
            }
            for event in ["user_created", "password_set", "user_updated", "sign_in", "account_deleted"] {
                #expect(events(of: bob).contains(event), "\(event) for bob: \(events(of: bob))")
            }
            let disabling = try #require(entries.first { $0["event"] == "user_disabled" })
            #expect(disabling["actor"] == .string("admin:ci") && disabling["request_id"]?.stringValue?.isEmpty == false)
            #expect(entries.contains { $0["event"] == "sign_in_failed" && $0["detail"] == "password:user_disabled" })
            #expect(entries.contains { $0["event"] == "sign_in_failed" && $0["detail"] == "password:invalid_credentials" })
            #expect(!audit.bodyText.contains(Self.password) && !audit.bodyText.contains(key))
            let filtered = try await client.send(.get, "/admin/audit?event=user_disabled&user_id=\(sub)", bearer: key)
            #expect(filtered["entries"]?.arrayValue?.count == 1)
        }
    }

    @Test(arguments: TestDatabase.available)
    func userTokensBadAndRevokedKeysAndBrowsersAreRefused(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database) { $0.corsOrigins = ["https://app.example"] }
        let administration = app.built.useCases.administration
        try await app.live { client in
            let key = try await administration.createKey(name: "ops")
            let user = try await client.signedIn(app).string("access_token")
            #expect(try await client.send(.get, "/admin/users").status == .unauthorized)
            for bad in [
                user, "gha_short", key + "x", String(key.dropLast()) + (key.hasSuffix("A") ? "B" : "A"), "gha_" + String(repeating: "!", count: 43),
            ] {
                let reply = try await client.send(.get, "/admin/users", bearer: bad)
                #expect(reply.status == .unauthorized && reply.errorCode == "unauthorized", "\(bad.prefix(12))")
            }
            var twice = HTTPFields()
            twice.append(HTTPField(name: .authorization, value: "Bearer \(key)"))
            twice.append(HTTPField(name: .authorization, value: "Bearer \(key)"))
            #expect(try await client.send(.get, "/admin/users", headers: twice).status == .unauthorized)
            for (name, value) in [("Origin", "https://app.example"), ("Sec-Fetch-Site", "same-origin"), ("Sec-Fetch-Mode", "cors")] {
                let browser = try await client.send(.get, "/admin/users", bearer: key, headers: [HTTPField.Name(name)!: value])
                #expect(browser.status == .forbidden, "\(name)")
                #expect(browser.headers[.accessControlAllowOrigin] == nil)
            }
            let preflight = try await client.send(
                .options,
                "/admin/users",
                headers: [.origin: "https://app.example", .accessControlRequestMethod: "GET"]
            )
            #expect(preflight.headers[.accessControlAllowOrigin] == nil)
            #expect(try await client.send(.get, "/admin/users", bearer: key).status == .ok)
            try await administration.revokeKey(name: "ops")
            #expect(try await client.send(.get, "/admin/users", bearer: key).status == .unauthorized)
            await #expect(throws: GatehouseError.self) { try await administration.revokeKey(name: "ops") }
            // The name is free again once its key is revoked; names are checked.
            let next = try await administration.createKey(name: "ops")
            #expect(next != key && next.hasPrefix("gha_"))
            await #expect(throws: GatehouseError.self) { _ = try await administration.createKey(name: "ops") }
            await #expect(throws: GatehouseError.self) { _ = try await administration.createKey(name: "a b") }
            let keys = try await administration.keys()
            #expect(keys.count == 2 && keys.filter { $0.revokedAt == nil }.count == 1 && keys.allSatisfy { !$0.keyHash.contains(key) })
            let audit = try await client.send(.get, "/admin/audit?event=admin_refused", bearer: next)
            #expect((audit["entries"]?.arrayValue?.count ?? 0) >= 8, "\(audit.bodyText)")
        }
    }

    @Test(arguments: TestDatabase.available)
    func searchIsExactAndPagesNeitherSkipNorRepeatWhileUsersSignUp(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database)
        let administration = app.built.useCases.administration
        try await app.live { client in
            let key = try await administration.createKey(name: "pages")
            for n in 0..<23 {
                _ = try await administration.createUser(
                    NewUser(email: try EmailAddress("u\(n)@example.com"), password: nil, name: nil, confirmed: true)
                )
                if n % 5 == 0 { app.clock.advance(by: 1) }
            }
            let before = try #require(try await client.send(.get, "/admin/users?limit=200", bearer: key)["users"]?.arrayValue)
            #expect(before.count == 23)
            // Page by 4 while more users are created between pages (some in the same second).
            var seen: [String] = []
            var cursor: String?
            var extra = 0
            repeat {
                let path = "/admin/users?limit=4" + (cursor.map { "&cursor=" + $0 } ?? "")
                let page = try await client.send(.get, path, bearer: key)
                #expect(page.status == .ok, "\(page.bodyText)")
                seen += page["users"]?.arrayValue?.compactMap { $0.objectValue?["sub"]?.stringValue } ?? []
                cursor = page["next_cursor"]?.stringValue
                if extra < 6 {
                    _ = try await administration.createUser(
                        NewUser(email: try EmailAddress("late\(extra)@example.com"), password: nil, name: nil, confirmed: false)
                    )
                    extra += 1
                }
            } while cursor != nil
            // Users created while paging may or may not show (one created in an already-listed second sorts
            // before the cursor); every user that existed shows exactly once, in order.
            #expect(Set(seen).count == seen.count, "a page repeated a user")
            let original = before.compactMap { $0.objectValue?["sub"]?.stringValue }
            #expect(seen.filter(Set(original).contains) == original, "the users that existed are all listed, in order")
            #expect(seen.count >= 23 && seen.count <= 29)

            // Exact matches only; nothing the caller types becomes a pattern or SQL.
            for hostile in ["%25", "u1%25%40example.com", "%27%20OR%201%3D1%20--", "*"] {
                let reply = try await client.send(.get, "/admin/users?email=\(hostile)", bearer: key)
                #expect(reply.status == .badRequest || reply["users"]?.arrayValue?.isEmpty == true, "\(hostile): \(reply.bodyText)")
            }
            #expect(try await client.send(.get, "/admin/users?sub=%27%20OR%20%271%27%3D%271", bearer: key).status == .badRequest)
            #expect(try await client.send(.get, "/admin/users?sub=%27OR%271%27%3D%271", bearer: key)["users"]?.arrayValue?.isEmpty == true)
            for bad in [
                "limit=0", "limit=201", "limit=x", "cursor=%%%", "cursor=bm9wZQ", "nope=1", "email=a@b.c&email=d@e.f", "created_from=yesterday",
                "sub=",
            ] {
                let reply = try await client.send(.get, "/admin/users?\(bad)", bearer: key)
                #expect(reply.status == .badRequest && reply.errorCode == "invalid_request", "\(bad): \(reply.status)")
            }
            let recent = try await client.send(.get, "/admin/users?created_from=\(ContractTimestamp.string(app.clock.now()))", bearer: key)
            #expect((recent["users"]?.arrayValue?.count ?? 0) >= 6)
            for bad in ["{", "[]", #"{"email":1}"#, #"{"email":"x@example.com","role":"admin"}"#, #"{"email":"x@example.com","confirmed":"yes"}"#] {
                #expect(try await client.send(.post, "/admin/users", raw: bad, bearer: key).status == .badRequest, "\(bad)")
            }
        }
    }
}

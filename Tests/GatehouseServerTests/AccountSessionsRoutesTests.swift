import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Issue 29 over HTTP: the session list reads the request's `User-Agent` and the client address (a
/// forwarded one only from a trusted proxy), and the new routes refuse hostile input with clear
/// errors and leave nothing half-written.
@Suite("Routes: a user's sessions and email change", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct AccountSessionsRoutesTests {
    /// One app per database for the tests that need nothing of their own, reset before each.
    static let apps = TestApp.shared()

    static let safari =
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1"

    static func signIn(_ client: any TestClientProtocol, headers: HTTPFields) async throws -> Reply {
        try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"], headers: headers)
    }

    @Test(arguments: TestDatabase.available)
    func theListShowsTheRequestsDeviceAndOnlyATrustedProxysForwardedAddress(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database) { $0.trustedProxies = ["10.0.0.1"] }
        try await app.live { client in
            let first = try await client.signedIn(app)
            // Live over loopback: the peer is 127.0.0.1, not a trusted proxy, so its X-Forwarded-For is ignored.
            let forged = try await Self.signIn(client, headers: [.userAgent: Self.safari, HTTPField.Name("X-Forwarded-For")!: "203.0.113.9"])
            #expect(forged.status == .ok)
            let list = try await client.send(.get, "/me/sessions", bearer: first.string("access_token"))
            let sessions = (list["sessions"]?.arrayValue ?? []).compactMap(\.objectValue)
            let phone = try #require(sessions.first { $0["device"]?.stringValue == "Safari on iPhone" })
            #expect(phone["client_address"]?.stringValue == "127.0.0.0/24" && phone["current"] == .bool(false))
            #expect(
                phone["method"]?.stringValue == "password" && phone["amr"]?.arrayValue?.compactMap(\.stringValue) == ["pwd"]
                    && phone["last_refreshed_at"] == .null
            )
            let mine = try #require(sessions.first { $0["current"] == .bool(true) })
            #expect(Set(mine.keys) == ["id", "created_at", "last_refreshed_at", "device", "client_address", "method", "amr", "current"])
            #expect(!list.bodyText.contains("203.0.113"), "a forged forwarded address is not shown")
        }
    }

    @Test(arguments: TestDatabase.available)
    func hostileSessionIdsAndBodiesAreRefusedClearly(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database) { $0.maxBodySize = 2048 }
        try await app.router { client in
            let bearer = try await client.signedIn(app).string("access_token")
            let hostileIDs = [
                "nope", "%2e%2e%2f%2e%2e", String(repeating: "a", count: 5000), "%00", "%F0%9F%92%A9", "1;DROP%20TABLE%20gh_sessions",
                "01936f5e-0000-7000-8000-000000000000",
            ]
            for id in hostileIDs {
                let reply = try await client.send(.delete, "/me/sessions/\(id)", bearer: bearer)
                #expect(reply.status == .notFound && reply.errorCode == "not_found", "\(id.prefix(40)): \(reply.status)")
            }
            #expect(try await client.send(.get, "/me/sessions", bearer: bearer)["sessions"]?.arrayValue?.count == 1)
            #expect(try await client.send(.post, "/me/sessions", bearer: bearer).status == .methodNotAllowed)

            let bodies: [(String, String)] = [
                ("{", "truncated"), ("[]", "array"), (#"{"email":"a@example.com","email":"b@example.com"}"#, "duplicate keys"),
                (#"{"email":["x@example.com"]}"#, "array for string"), (#"{"current_password":"correct horse 9"}"#, "missing email"),
                (#"{"email":"x@example.com","current_password":7}"#, "number for password"),
                (#"{"email":"x@example.com\r\nBcc: y@example.com","current_password":"correct horse 9"}"#, "header injection"),
                (#"{"email":"x\u0000@example.com","current_password":"correct horse 9"}"#, "NUL"),
            ]
            for (body, name) in bodies {
                let reply = try await client.send(.post, "/me/email", raw: body, bearer: bearer)
                #expect(reply.status == .badRequest && reply.errorCode == "invalid_request", "\(name): \(reply.status)")
            }
            let huge = #"{"email":"x@example.com","current_password":""# + String(repeating: "p", count: 4096) + #""}"#
            #expect(try await client.send(.post, "/me/email", raw: huge, bearer: bearer).status == .contentTooLarge)
            for body in [#"{"code":123456}"#, "{}", #"{"code":""# + String(repeating: "1", count: 33) + #""}"#] {
                #expect(try await client.send(.post, "/me/email/verify", raw: body, bearer: bearer).status == .badRequest, "\(body.prefix(30))")
            }
            let user = try await app.built.store.read { try await $0.user(emailKey: "alice@example.com") }
            #expect(user?.email == "alice@example.com")
            #expect(try await app.built.store.read { try await $0.code(userID: user?.id ?? "", purpose: .changeEmail) } == nil)
            #expect(await app.mailer.all.map(\.kind) == ["confirm_signup"], "nothing mailed")
        }
    }

    @Test func theNewAddressFollowsIntoTheProfileAndTheNextIDToken() async throws {
        try await Self.apps.router { app, client in
            let tokens = try await client.signedIn(app)
            let bearer = tokens.string("access_token")
            #expect(try await client.send(.get, "/me", bearer: bearer).string("email") == "alice@example.com")
            let body: JSONValue = ["email": "alice@new.example", "current_password": "correct horse 9"]
            #expect(try await client.send(.post, "/me/email", json: body, bearer: bearer).status == .ok)
            let code = try #require(await app.mailer.latestCode(to: "alice@new.example", kind: "confirm_email_change"))
            #expect(try await client.send(.get, "/me", bearer: bearer).string("email") == "alice@example.com", "not before the code")
            let profile = try await client.send(.post, "/me/email/verify", json: ["code": .string(code)], bearer: bearer)
            #expect(profile.status == .ok && profile.string("email") == "alice@new.example")
            #expect(try await client.send(.get, "/me", bearer: bearer).string("email") == "alice@new.example")
            let refreshed = try await client.send(.post, "/auth/refresh", json: ["refresh_token": .string(tokens.string("refresh_token"))])
            let claims = try CompactJWS(parsing: refreshed.string("id_token")).claims
            #expect(claims["email"]?.stringValue == "alice@new.example")
            let notice = await app.mailer.messages(to: "alice@example.com").last
            #expect(notice?.kind == "email_changed" && notice?.body.contains("a***@n***.example") == true)
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Routes: hostile input", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct HostileInputTests {
    /// One app per database for the tests that need nothing of their own, reset before each.
    static let apps = TestApp.shared()

    static let jsonEndpoints = [
        "/auth/signup", "/auth/confirm", "/auth/resend-code", "/auth/signin", "/auth/refresh", "/auth/signout",
        "/auth/password/forgot", "/auth/password/reset",
    ]

    @Test(arguments: TestDatabase.available)
    func malformedBodiesAre400AndLeaveNothingBehind(_ database: TestDatabase) async throws {
        try await Self.apps.router(database) { app, client in
            let bodies: [(String, String)] = [
                ("{", "truncated"), ("[]", "top-level array"), ("\"x\"", "top-level string"), ("null", "null"),
                (#"{"email":"a@example.com","email":"b@example.com","password":"correct horse 9"}"#, "duplicate keys"),
                (#"{"email":1,"refresh_token":2,"password":"correct horse 9"}"#, "wrong type"),
                (#"{"email":["a@example.com"],"refresh_token":{},"password":"correct horse 9"}"#, "array for string"),
                (#"{"email":true,"refresh_token":false,"password":"correct horse 9"}"#, "bool for string"),
                (#"{"unrelated":"a@example.com"}"#, "missing field"), ("", "empty"),
                (#"{"email":"a@example.com","password":"x"} trailing"#, "trailing garbage"),
                (#"{"email":"a\ud800@example.com","password":"correct horse 9"}"#, "lone surrogate"),
            ]
            for path in Self.jsonEndpoints {
                for (body, name) in bodies {
                    let reply = try await client.send(.post, path, raw: body)
                    #expect(reply.status == .badRequest, "\(path) \(name)")
                    #expect(reply.errorCode == "invalid_request", "\(path) \(name)")
                    #expect(reply.headers[.xRequestID] != nil)
                }
            }
            let invalidUTF8 = try await client.send(
                .post,
                "/auth/signup",
                bytes: Array(#"{"email":""#.utf8) + [0xFF, 0xFE] + Array(#"@x.com","password":"correct horse 9"}"#.utf8)
            )
            #expect(invalidUTF8.status == .badRequest)
            let users = try await app.built.store.read { try await $0.user(emailKey: "a@example.com") }
            let mail = await app.mailer.all
            #expect(users == nil && mail.isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func contentTypeIsEnforced(_ database: TestDatabase) async throws {
        try await Self.apps.router(database) { app, client in
            let body = #"{"email":"a@example.com","password":"correct horse 9"}"#
            for type in ["text/plain", "application/x-www-form-urlencoded", "application/json; charset=utf-16", "application/jsonx"] {
                let reply = try await client.send(.post, "/auth/signin", raw: body, contentType: type)
                #expect(reply.status == .unsupportedMediaType && reply.errorCode == "unsupported_media_type", "\(type)")
            }
            let missing = try await client.send(.post, "/auth/signin", raw: body, contentType: nil)
            #expect(missing.status == .unsupportedMediaType)
            let ok = try await client.send(.post, "/auth/signin", raw: body, contentType: "Application/JSON; charset=UTF-8")
            #expect(ok.status == .unauthorized, "the JSON is read; the account just does not exist")
        }
    }

    @Test func oversizedBodiesAre413() async throws {
        let app = try await TestApp.make { $0.maxBodySize = 2048 }
        try await app.router { client in
            let big = #"{"email":"a@example.com","password":""# + String(repeating: "x", count: 4096) + #""}"#
            let reply = try await client.send(.post, "/auth/signup", raw: big)
            #expect(reply.status == .contentTooLarge && reply.errorCode == "payload_too_large")
        }
    }

    @Test(arguments: TestDatabase.available)
    func sqlMetacharactersAndUnicodeAreJustData(_ database: TestDatabase) async throws {
        try await Self.apps.router(database) { app, client in
            let email = "o'brien+\"x\"--@example.com"
            let weird = try await client.send(
                .post,
                "/auth/signup",
                json: ["email": .string(email), "password": "pw'; DROP TABLE gh_users;-- 1", "full_name": "Robert'); DROP TABLE gh_users;-- 😀 名前"]
            )
            // Quotes are not valid in our email syntax, so that one is refused cleanly.
            #expect(weird.status == .badRequest)
            let fine = try await client.signedIn(
                app,
                email: "o'brien%_@example.com",
                password: "pw'; DROP TABLE gh_users;-- 1",
                name: "Robert'); DROP TABLE gh_users;-- 😀 名前"
            )
            #expect(fine.status == .ok)
            let me = try await client.send(.get, "/me", bearer: fine.string("access_token"))
            #expect(me.string("full_name") == "Robert'); DROP TABLE gh_users;-- 😀 名前")
            #expect(me.string("email") == "o'brien%_@example.com")
            // LIKE wildcards match nothing else.
            let other = try await client.send(
                .post,
                "/auth/signin",
                json: ["email": "o'brienxx@example.com", "password": "pw'; DROP TABLE gh_users;-- 1"]
            )
            #expect(other.status == .unauthorized)
            let unicodeEmail = try await client.signedIn(app, email: "jürgen@müller.de", password: "ünïcödé pass 1")
            #expect(unicodeEmail.status == .ok)
        }
    }

    @Test(arguments: TestDatabase.available)
    func protectedEndpointsRefuseEveryBadBearer(_ database: TestDatabase) async throws {
        try await Self.apps.router(database) { app, client in
            let tokens = try await client.signedIn(app)
            let idToken = tokens.string("id_token")
            let access = tokens.string("access_token")
            let parts = access.split(separator: ".").map(String.init)
            let tamperedPayload = Base64URL.encode(Array(#"{"sub":"someone-else","token_use":"access"}"#.utf8))
            let candidates: [(String?, String)] = [
                (nil, "no header"), ("", "empty"), (idToken, "ID token"), (parts[0] + "." + tamperedPayload + "." + parts[2], "tampered"),
                (parts[0] + "." + parts[1] + ".", "no signature"), ("garbage", "garbage"),
                (Base64URL.encode(Array(#"{"alg":"none"}"#.utf8)) + "." + parts[1] + ".", "alg none"),
            ]
            for (bearer, name) in candidates {
                let reply = try await client.send(.get, "/me", bearer: bearer)
                #expect(reply.status == .unauthorized, "\(name)")
                #expect(reply.errorCode == "unauthorized", "\(name)")
                #expect(reply.headers[.wwwAuthenticate] == #"Bearer error="invalid_token""#, "\(name)")
            }
            // The same body for every reason.
            let a = try await client.send(.get, "/me", bearer: "garbage")
            let b = try await client.send(.get, "/me", bearer: idToken)
            #expect(a.bodyText == b.bodyText)
            // Tokens in the query string are never read; other schemes are refused.
            #expect(try await client.send(.get, "/me?access_token=\(access)").status == .unauthorized)
            #expect(try await client.send(.get, "/me", headers: [.authorization: "Basic \(access)"]).status == .unauthorized)
            #expect(try await client.send(.get, "/me", headers: [.authorization: "bearer \(access)"]).status == .ok)
        }
    }

    @Test func unknownRoutesAndWrongMethods() async throws {
        try await Self.apps.router { app, client in
            let missing = try await client.send(.get, "/nope")
            #expect(missing.status == .notFound && missing.errorCode == "not_found" && missing.headers[.xRequestID] != nil)
            let wrongMethod = try await client.send(.get, "/auth/signin")
            #expect(wrongMethod.status == .methodNotAllowed && wrongMethod.errorCode == "method_not_allowed")
            #expect(wrongMethod.headers[.allow] == "POST")
            let me = try await client.send(.put, "/me")
            #expect(me.status == .methodNotAllowed && Set((me.headers[.allow] ?? "").components(separatedBy: ", ")) == ["GET", "PATCH", "DELETE"])
        }
    }

    @Test func requestIDsAreEchoedOrMinted() async throws {
        try await Self.apps.router { app, client in
            let given = try await client.send(.get, "/health", headers: [.init("X-Request-Id")!: "abc-123"])
            #expect(given.headers[.init("X-Request-Id")!] == "abc-123")
            let hostile = try await client.send(.get, "/health", headers: [.init("X-Request-Id")!: "<script>alert(1)</script>"])
            #expect(hostile.headers[.init("X-Request-Id")!] != "<script>alert(1)</script>")
            #expect(hostile.headers[.init("X-Request-Id")!]?.isEmpty == false)
        }
    }
}

extension HTTPField.Name {
    static let xRequestID = HTTPField.Name("X-Request-Id")!
}

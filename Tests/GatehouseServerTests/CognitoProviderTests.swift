import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

/// Every contract endpoint in Cognito mode, end to end over a real socket, against moto's emulator
/// (through `Tests/cognito/moto_shim.py`).
@Suite(
    "Cognito (moto): the contract end to end",
    .serialized,
    .enabled(if: MotoCognito.isAvailable),
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct CognitoProviderTests {
    static func relaxedMail(_ c: inout GatehouseConfiguration) {
        // Real time here: the one-mail-per-minute cool-down would get in the way of a quick journey.
        c.pool.rateLimits.mailPerAddress = .init(name: "mail.address", freeAttempts: 100, window: 60)
    }

    static func email(_ name: String) -> String { "\(name)-\(UUID().uuidString.prefix(8).lowercased())@example.com" }

    @Test(arguments: TestDatabase.available)
    func emailAndPasswordJourney(_ database: TestDatabase) async throws {
        let moto = try #require(MotoCognito.shared)
        let capture = LogCapture()
        let app = try await TestApp.cognito(moto, database: database, logger: capture.logger(level: .debug), configure: Self.relaxedMail)
        let email = Self.email("alice")
        let firstRefreshToken = try await app.live { client in
            let signUp = try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": "password1", "full_name": "Alice"])
            #expect(signUp.status == .created && signUp["user_confirmed"] == .bool(false))
            #expect(signUp["code_delivery"]?.objectValue?["medium"] == "EMAIL")
            // The same answer for an address that already has an account.
            let again = try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": "password2"])
            #expect(
                again.status == .created && Set(again.object.keys) == Set(signUp.object.keys) && again.string("user_sub") != signUp.string("user_sub")
            )

            let early = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"])
            #expect(early.status == .forbidden && early.errorCode == "user_not_confirmed")
            #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": "000000"]).errorCode == "code_mismatch")
            let code = try await moto.latestCode("signup", for: email)
            #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)]).status == .ok)

            let wrong = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password9"])
            let unknown = try await client.send(.post, "/auth/signin", json: ["email": .string(Self.email("nobody")), "password": "password9"])
            #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_credentials")
            #expect(unknown.status == wrong.status && unknown.bodyText == wrong.bodyText, "unknown user and wrong password answer alike")

            let tokens = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"])
            #expect(tokens.status == .ok && tokens.string("token_type") == "Bearer" && tokens["expires_in"] != nil)
            let access = tokens.string("access_token")
            let me = try await client.send(.get, "/me", bearer: access)
            #expect(
                me.status == .ok && me.string("email") == email && me["email_verified"] == .bool(true)
                    && me.string("sub") == signUp.string("user_sub")
            )
            #expect(me.string("full_name") == "Alice")
            #expect(try await client.send(.get, "/me", bearer: tokens.string("id_token")).status == .unauthorized, "ID tokens are refused")
            let patched = try await client.send(.patch, "/me", json: ["full_name": "Alice A."], bearer: access)
            #expect(patched.status == .ok && patched.string("full_name") == "Alice A.")

            // Refresh (REFRESH_TOKEN_AUTH keeps the refresh token), then sign out: both tokens stop.
            let refreshed = try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!])
            #expect(refreshed.status == .ok && refreshed.string("access_token") != access)
            #expect(try await client.send(.get, "/me", bearer: refreshed.string("access_token")).status == .ok)
            #expect(try await client.send(.post, "/auth/signout", json: ["refresh_token": tokens["refresh_token"]!]).status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: refreshed.string("access_token")).status == .unauthorized)
            #expect(try await client.send(.get, "/me", bearer: access).status == .unauthorized)
            #expect(try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!]).errorCode == "invalid_grant")
            #expect(try await client.send(.post, "/auth/refresh", json: ["refresh_token": "not-a-token"]).errorCode == "invalid_grant")

            // Resend for a confirmed account and forgot for an unknown one answer like any other.
            #expect(try await client.send(.post, "/auth/resend-code", json: ["email": .string(email)]).status == .ok)
            #expect(try await client.send(.post, "/auth/password/forgot", json: ["email": .string(Self.email("ghost"))]).status == .ok)

            // Reset ends every session; the new password works.
            let before = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"])
            #expect(try await client.send(.post, "/auth/password/forgot", json: ["email": .string(email)]).status == .ok)
            #expect(
                try await client.send(.post, "/auth/password/reset", json: ["email": .string(email), "code": "111111", "new_password": "password2"])
                    .errorCode == "code_mismatch"
            )
            let resetCode = try await moto.latestCode("reset", for: email)
            #expect(
                try await client.send(
                    .post,
                    "/auth/password/reset",
                    json: ["email": .string(email), "code": .string(resetCode), "new_password": "short"]
                ).errorCode == "invalid_password"
            )
            #expect(
                try await client.send(
                    .post,
                    "/auth/password/reset",
                    json: ["email": .string(email), "code": .string(resetCode), "new_password": "password2"]
                ).status == .ok
            )
            #expect(try await client.send(.get, "/me", bearer: before.string("access_token")).status == .unauthorized)
            #expect(try await client.send(.post, "/auth/refresh", json: ["refresh_token": before["refresh_token"]!]).errorCode == "invalid_grant")
            #expect(
                try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"]).errorCode
                    == "invalid_credentials"
            )

            // Change password: the wrong current password is refused; other sessions end, this one stays.
            let first = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password2"])
            let second = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password2"])
            let wrongCurrent = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": "nope12345", "new_password": "password3"],
                bearer: second.string("access_token")
            )
            #expect(wrongCurrent.errorCode == "invalid_credentials")
            #expect(
                try await client.send(
                    .post,
                    "/auth/password/change",
                    json: ["current_password": "password2", "new_password": "password3"],
                    bearer: second.string("access_token")
                ).status == .ok
            )
            #expect(try await client.send(.get, "/me", bearer: first.string("access_token")).status == .unauthorized)
            #expect(try await client.send(.get, "/me", bearer: second.string("access_token")).status == .ok)

            // Sign out everywhere, then deletion: the user is gone at Cognito and here.
            #expect(try await client.send(.post, "/auth/signout/all", bearer: second.string("access_token")).status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: second.string("access_token")).status == .unauthorized)
            let last = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password3"])
            #expect(try await client.send(.delete, "/me", bearer: last.string("access_token")).status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: last.string("access_token")).status == .unauthorized)
            #expect(try await client.send(.post, "/auth/refresh", json: ["refresh_token": last["refresh_token"]!]).errorCode == "invalid_grant")
            #expect(
                try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password3"]).errorCode
                    == "invalid_credentials"
            )
            return tokens.string("refresh_token")
        }
        // Nothing secret reached the log: no address, password, code or token (moto even puts tokens
        // and usernames into its error messages, which must stay out).
        let log = capture.text
        #expect(!log.isEmpty && log.contains("signed in"))
        let secrets = [
            email, "password1", "password2", "password3", "eyJ", firstRefreshToken,
            try await moto.latestCode("signup", for: email), try await moto.latestCode("reset", for: email),
        ]
        for secret in secrets {
            #expect(!log.contains(secret), "the log contains a secret (\(secret.prefix(3))…)")
        }
    }

    @Test func codesExpireAndCanBeResent() async throws {
        let moto = try #require(MotoCognito.shared)
        let app = try await TestApp.cognito(moto, configure: Self.relaxedMail)
        let email = Self.email("bob")
        try await app.live { client in
            let weak = try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": "password"])
            #expect(
                weak.status == .badRequest && weak.errorCode == "invalid_password" && !weak.bodyText.contains("onfirm"),
                "Cognito's wording stays out"
            )
            #expect(try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": "password1"]).status == .created)
            try await moto.expireCodes()
            let code = try await moto.latestCode("signup", for: email)
            #expect(
                try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)]).errorCode == "code_expired"
            )
            let resent = try await client.send(.post, "/auth/resend-code", json: ["email": .string(email)])
            #expect(resent.status == .ok && resent["code_delivery"]?.objectValue?["destination"] != nil)
            let fresh = try await moto.latestCode("signup", for: email)
            #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(fresh)]).status == .ok)
            #expect(try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"]).status == .ok)
        }
    }

    @Test func rotationReturnsANewRefreshTokenAndRetiresTheOld() async throws {
        let moto = try #require(MotoCognito.shared)
        let app = try await TestApp.cognito(moto) { c in
            c.cognito?.refreshRotation = true
            Self.relaxedMail(&c)
        }
        let email = Self.email("rita")
        try await app.live { client in
            _ = try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": "password1"])
            let code = try await moto.latestCode("signup", for: email)
            _ = try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)])
            let tokens = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"])
            let rotated = try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!])
            #expect(rotated.status == .ok && rotated.string("refresh_token") != tokens.string("refresh_token"))
            #expect(try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"]!]).errorCode == "invalid_grant")
            // The rotated token belongs to the same session: signing it out ends the session here.
            #expect(try await client.send(.post, "/auth/signout", json: ["refresh_token": rotated["refresh_token"]!]).status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: rotated.string("access_token")).status == .unauthorized)
        }
    }

    @Test func failedSignInsAreThrottledByGatehouse() async throws {
        let moto = try #require(MotoCognito.shared)
        let app = try await TestApp.cognito(moto) { c in
            c.pool.rateLimits.signInPerAccount = .init(name: "signin.account", freeAttempts: 2, window: 3600, baseBlock: 30, maxBlock: 30)
        }
        try await app.live { client in
            let email = Self.email("carol")
            for _ in 0..<3 { _ = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"]) }
            let blocked = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"])
            #expect(blocked.status == .tooManyRequests && blocked.headers[.retryAfter] != nil)
        }
    }

    @Test func discoveryPointsAtThePoolAndForgedTokensAreRefused() async throws {
        let moto = try #require(MotoCognito.shared)
        let app = try await TestApp.cognito(moto)
        try await app.live { client in
            #expect(try await client.send(.get, "/.well-known/jwks.json").status == .notFound)
            let discovery = try await client.send(.get, "/.well-known/openid-configuration")
            #expect(discovery.string("issuer") == moto.settings().issuer && discovery.string("jwks_uri") == moto.jwksURL)
            #expect(try await client.send(.get, "/ready").status == .ok)
            // Our own kind of token (another issuer and key) and a tampered Cognito-shaped one.
            let foreign = CompactJWS.encode(
                header: ["alg": "RS256", "kid": "dummy", "typ": "JWT"],
                claims: [
                    "iss": .string(moto.settings().issuer), "sub": "x", "token_use": "access", "client_id": .string(moto.clientID),
                    "exp": .number(Date().timeIntervalSince1970.rounded() + 600), "origin_jti": "s",
                ]
            ) { _ in Array(repeating: 7, count: 256) }
            #expect(try await client.send(.get, "/me", bearer: foreign).status == .unauthorized)
            #expect(try await client.send(.get, "/me", bearer: "a.b.c").status == .unauthorized)
            #expect(try await client.send(.get, "/me").status == .unauthorized)
        }
    }

    @Test func unreachableCognitoIsA503AndChangesNothing() async throws {
        let app = try await TestApp.make(realTime: true) { c in
            c.identityProvider = .cognito
            c.cognito = CognitoSettings(
                userPoolID: "us-east-1_Nowhere",
                clientID: "client",
                endpoint: "http://127.0.0.1:9",
                jwksURL: "http://127.0.0.1:9/jwks.json"
            )
        }
        try await app.router { client in
            let reply = try await client.send(.post, "/auth/signin", json: ["email": "a@example.com", "password": "password1"])
            #expect(reply.status == .serviceUnavailable && reply.errorCode == "upstream_unavailable")
            #expect(try await client.send(.get, "/ready").status == .serviceUnavailable)
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// The seed 003 (Hero365) iOS client against the real server over a socket: its own request structs
/// encoded with `JSONEncoder` as the app does, every answer decoded into its own response structs with
/// `JSONDecoder`, exactly as the app does.
@Suite("Seed 003 (Hero365): the seed's client structs against /api/v1", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct Seed003ContractTests {
    typealias Seed = Seed003Client

    /// An app with Google and Apple pointed at `issuer` and the compatibility API on.
    static func app(_ issuer: FakeIssuer, realTime: Bool = false, phone: Bool = false) async throws -> TestApp {
        try await TestApp.social(issuer: issuer, realTime: realTime) {
            $0.compatAPIV1 = true
            if phone { $0.smsCountries = SMSCountryPolicy(allowedCountries: ["US", "CA"]) }
        }.0
    }

    /// Posts `body` encoded the way the seed's client encodes it.
    static func post(_ client: any TestClientProtocol, _ path: String, _ body: some Encodable) async throws -> Reply {
        try await client.send(.post, path, bytes: Array(try JSONEncoder().encode(body)))
    }

    /// Decodes an answer the way the seed's client does.
    static func decode<T: Decodable>(_ type: T.Type, _ reply: Reply) throws -> T {
        try JSONDecoder().decode(type, from: Data(reply.bodyText.utf8))
    }

    static func sub(_ token: String) throws -> String? {
        try CompactJWS(parsing: token).claims["sub"]?.stringValue
    }

    @Test func appleSignInDecodesIntoTheSeedsResponseAndUser() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(issuer)
            try await app.live { client in
                let userIdentifier = "000123.abc456def789.1234"
                let token = issuer.token(.apple, audience: Clients.appleBundle, subject: userIdentifier, email: "test@privaterelay.appleid.com")
                let request = Seed.AppleSignInRequest(
                    id_token: token,
                    user_identifier: userIdentifier,
                    email: "test@privaterelay.appleid.com",
                    full_name: "Test User"
                )
                let reply = try await Self.post(client, "/api/v1/auth/apple/signin", request)
                #expect(reply.status == .ok, "\(reply.bodyText)")
                #expect(reply.headers[.cacheControl] == "no-store")
                let answer = try Self.decode(Seed.OAuthSignInResponse.self, reply)
                #expect(answer.is_new_user)
                #expect(answer.token_type == "Bearer" && answer.expires_in > 0 && !answer.refresh_token.isEmpty)
                #expect(answer.user.id == (try Self.sub(answer.access_token)))
                #expect(answer.user.email == "test@privaterelay.appleid.com")
                #expect(answer.user.full_name == "Test User")
                #expect(answer.user.phone == nil && answer.user.supabase_id == nil)
                #expect(answer.user.is_active && !answer.user.is_superuser)
                #expect(reply.string("id_token").isEmpty == false, "the ID token is included as well")

                let again = try Self.decode(Seed.OAuthSignInResponse.self, try await Self.post(client, "/api/v1/auth/apple/signin", request))
                #expect(!again.is_new_user && again.user.id == answer.user.id)

                let me = try await client.send(.get, "/api/v1/users/me", bearer: again.access_token)
                #expect(me.status == .ok && me.headers[.cacheControl] == "no-store")
                let user = try Self.decode(Seed.User.self, me)
                #expect(user.id == answer.user.id && user.full_name == "Test User" && user.email == answer.user.email)
                // The same account as the native endpoints see.
                let native = try await client.send(.get, "/me", bearer: again.access_token)
                #expect(native.string("sub") == user.id)
            }
        }
    }

    @Test func googleSignInDecodesIntoTheSeedsResponse() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(issuer)
            try await app.live { client in
                let token = issuer.token(.google, audience: Clients.googleIOS, subject: "g-hero", email: "test@gmail.com")
                let request = Seed.GoogleSignInRequest(
                    id_token: token,
                    access_token: "ya29.a0ARrdaM-not-read",
                    email: "test@gmail.com",
                    full_name: nil,
                    given_name: "Test",
                    family_name: "User",
                    picture_url: "https://lh3.googleusercontent.com/a/photo.jpg"
                )
                let reply = try await Self.post(client, "/api/v1/auth/google/signin", request)
                #expect(reply.status == .ok, "\(reply.bodyText)")
                let answer = try Self.decode(Seed.OAuthSignInResponse.self, reply)
                #expect(answer.is_new_user && answer.user.email == "test@gmail.com")
                #expect(answer.user.full_name == "Test User", "given and family names fill the display name")
                #expect(answer.user.id == (try Self.sub(answer.access_token)))
                // The seed's curl example: no access_token, only full_name.
                let minimal = try await client.send(
                    .post,
                    "/api/v1/auth/google/signin",
                    json: ["id_token": .string(token), "email": "test@gmail.com", "full_name": "Other Name"]
                )
                let second = try Self.decode(Seed.OAuthSignInResponse.self, minimal)
                #expect(!second.is_new_user && second.user.id == answer.user.id && second.user.full_name == "Test User")
                let me = try Self.decode(Seed.User.self, try await client.send(.get, "/api/v1/users/me", bearer: second.access_token))
                #expect(me.id == answer.user.id)
            }
        }
    }

    @Test func emailSignUpThenSignInAndRefreshThroughAPIV1() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(issuer)
            try await app.live { client in
                let email = "hero@example.com"
                let password = "correct horse 9"
                let signUp = try await client.send(
                    .post,
                    "/api/v1/auth/signup",
                    json: ["email": .string(email), "password": .string(password), "full_name": "Hero Three"]
                )
                #expect(signUp.status == .created && signUp["user_confirmed"] == .bool(false))
                let early = try await client.send(.post, "/api/v1/auth/signin", json: ["email": .string(email), "password": .string(password)])
                #expect(early.status == .forbidden && early.errorCode == "user_not_confirmed")
                let code = try #require(await app.mailer.latestCode(to: email, kind: "confirm_signup"))
                #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)]).status == .ok)

                let signIn = try await client.send(.post, "/api/v1/auth/signin", json: ["email": .string(email), "password": .string(password)])
                #expect(signIn.status == .ok, "\(signIn.bodyText)")
                let answer = try Self.decode(Seed.OAuthSignInResponse.self, signIn)
                #expect(!answer.is_new_user && answer.user.email == email && answer.user.full_name == "Hero Three")
                #expect(answer.user.id == signUp.string("user_sub"))

                let wrong = try await client.send(.post, "/api/v1/auth/signin", json: ["email": .string(email), "password": "wrong horse 9"])
                #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_credentials")

                let refreshed = try await client.send(.post, "/api/v1/auth/refresh", json: ["refresh_token": .string(answer.refresh_token)])
                #expect(refreshed.status == .ok, "\(refreshed.bodyText)")
                let rotated = try Self.decode(Seed.OAuthSignInResponse.self, refreshed)
                #expect(rotated.refresh_token != answer.refresh_token && rotated.user.id == answer.user.id && !rotated.is_new_user)
                let bogus = try await client.send(.post, "/api/v1/auth/refresh", json: ["refresh_token": "ghr1.nope"])
                #expect(bogus.status == .unauthorized && bogus.errorCode == "invalid_grant")

                let me = try Self.decode(Seed.User.self, try await client.send(.get, "/api/v1/users/me", bearer: rotated.access_token))
                #expect(me.id == answer.user.id && me.email == email && me.phone == nil)
            }
        }
    }

    @Test func phoneSignInByOTPDecodesIntoTheSeedsResponseAndUser() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(issuer, phone: true)
            try await app.live { client in
                let number = "+14155550142"
                let sent = try await client.send(.post, "/api/v1/auth/otp/send", json: ["phone": "+1 415 555 0142"])
                #expect(sent.status == .ok && sent["phone"] == "+14…42", "\(sent.bodyText)")
                let code = try #require(await app.texts.latestCode(to: number))
                let first = try await client.send(.post, "/api/v1/auth/otp/verify", json: ["phone": .string(number), "code": .string(code)])
                #expect(first.status == .ok, "\(first.bodyText)")
                let answer = try Self.decode(Seed.OAuthSignInResponse.self, first)
                #expect(answer.is_new_user && answer.user.phone == number && answer.user.email == nil && answer.token_type == "Bearer")
                #expect(try Self.sub(answer.access_token) == answer.user.id)
                let me = try Self.decode(Seed.User.self, try await client.send(.get, "/api/v1/users/me", bearer: answer.access_token))
                #expect(me.id == answer.user.id && me.phone == number && me.is_active && !me.is_superuser && me.supabase_id == nil)

                app.clock.advance(by: 61)
                #expect(try await client.send(.post, "/api/v1/auth/otp/send", json: ["phone": .string(number)]).status == .ok)
                let again = try #require(await app.texts.latestCode(to: number))
                let second = try Self.decode(
                    Seed.OAuthSignInResponse.self,
                    try await client.send(.post, "/api/v1/auth/otp/verify", json: ["phone": .string(number), "token": .string(again)])
                )
                #expect(!second.is_new_user && second.user.id == answer.user.id)
                let wrong = try await client.send(.post, "/api/v1/auth/otp/verify", json: ["phone": .string(number), "code": .string(again)])
                #expect(wrong.status == .badRequest && wrong.errorCode == "code_mismatch", "a code signs in once")
            }
        }
    }

    @Test func aNonceIsAcceptedAsOnTheNativeEndpoint() async throws {
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(issuer)
            try await app.live { client in
                let token = issuer.token(.apple, audience: Clients.appleBundle, subject: "a-nonce", email: nil, nonce: "raw-nonce-1")
                let good = try await client.send(
                    .post,
                    "/api/v1/auth/apple/signin",
                    json: ["id_token": .string(token), "user_identifier": "a-nonce", "nonce": "raw-nonce-1"]
                )
                #expect(good.status == .ok, "\(good.bodyText)")
                let answer = try Self.decode(Seed.OAuthSignInResponse.self, good)
                #expect(answer.user.email == nil)
                #expect(try CompactJWS(parsing: good.string("id_token")).claims["nonce"]?.stringValue == "raw-nonce-1")
                let missing = try await client.send(.post, "/api/v1/auth/apple/signin", json: ["id_token": .string(token)])
                #expect(missing.status == .unauthorized && missing.errorCode == "invalid_token")
                let googleToken = issuer.token(.google, audience: Clients.googleWeb, subject: "g-nonce", email: nil, nonce: "n2")
                let wrong = try await client.send(.post, "/api/v1/auth/google/signin", json: ["id_token": .string(googleToken), "nonce": "n3"])
                #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_token")
            }
        }
    }
}

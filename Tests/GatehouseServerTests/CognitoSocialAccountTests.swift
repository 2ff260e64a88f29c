import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Logging
import Testing

/// Social sign-in on Cognito never takes a real account: only an UNCONFIRMED sign-up gives way to
/// the verified owner, only an authoritative provider email links or claims, and the password a user
/// set themselves is never replaced (moto behind `Tests/cognito/moto_shim.py`).
@Suite(
    "Cognito (moto): social sign-in keeps accounts and passwords",
    .serialized,
    .enabled(if: MotoCognito.isAvailable),
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct CognitoSocialAccountTests {
    static func email(_ name: String) -> String { CognitoProviderTests.email(name) }

    /// A Google token with `email_verified: true`; with `hd` Google is authoritative for the address.
    static func google(_ issuer: FakeIssuer, subject: String, email: String, hd: String? = "example.com") -> String {
        let claims = issuer.standardClaims(.google, audience: Clients.googleWeb, subject: subject, email: email)
        return issuer.token(.google, claims: claims, changing: hd.map { ["hd": .string($0)] } ?? [:])
    }

    static func app(_ moto: MotoCognito, _ issuer: FakeIssuer, logger: Logger? = nil) async throws -> TestApp {
        try await TestApp.social(issuer: issuer, logger: logger, realTime: true) { c in
            moto.configure(&c)
            CognitoProviderTests.relaxedMail(&c)
        }.0
    }

    /// Signs up and confirms a password account through Gatehouse.
    static func passwordAccount(_ client: some TestClientProtocol, _ moto: MotoCognito, email: String, password: String = "password1") async throws {
        #expect(try await client.send(.post, "/auth/signup", json: ["email": .string(email), "password": .string(password)]).status == .created)
        let code = try await moto.latestCode("signup", for: email)
        #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)]).status == .ok)
    }

    @Test func anAccountInAnyStatusButUnconfirmedIsNeverDeleted() async throws {
        let moto = try #require(MotoCognito.shared)
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(moto, issuer)
            try await app.live { client in
                for status in ["ARCHIVED", "COMPROMISED", "EXTERNAL_PROVIDER", "UNKNOWN", "RESET_REQUIRED"] {
                    let email = Self.email("status")
                    try await Self.passwordAccount(client, moto, email: email)
                    try await moto.setStatus(status, of: email)
                    let google = try await client.send(
                        .post,
                        "/auth/google",
                        json: ["id_token": .string(Self.google(issuer, subject: "g-\(email)", email: email))]
                    )
                    #expect(google.status == .conflict && google.errorCode == "conflict", "\(status): \(google.status)")
                    // The account is still there, password and all.
                    try await moto.setStatus("CONFIRMED", of: email)
                    let signIn = try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password1"])
                    #expect(signIn.status == .ok, "\(status): the account was replaced")
                }
            }
        }
    }

    @Test func socialSignInsKeepOneStablePassword() async throws {
        let moto = try #require(MotoCognito.shared)
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(moto, issuer)
            let email = Self.email("hal")
            try await app.live { client in
                let first = try await client.send(
                    .post,
                    "/auth/google",
                    json: ["id_token": .string(Self.google(issuer, subject: "g-hal", email: email))]
                )
                #expect(first.status == .ok && first["is_new_user"] == .bool(true))
                let sub = try await client.send(.get, "/me", bearer: first.string("access_token")).string("sub")
                for _ in 0..<2 {
                    let again = try await client.send(
                        .post,
                        "/auth/google",
                        json: ["id_token": .string(Self.google(issuer, subject: "g-hal", email: email))]
                    )
                    #expect(again.status == .ok && again["is_new_user"] == .bool(false))
                }
                #expect(try await moto.calls("AdminSetUserPassword", username: sub) == 1, "set once, then reused")
                // Sealed in the store, never in clear.
                let stored = try await app.built.store.read { try await $0.cognitoPassword(sub: sub) }
                #expect(stored != nil && stored?.sealedPassword.hasPrefix("v1.") == true)
                // Deleting the account forgets it.
                #expect(try await client.send(.delete, "/me", bearer: first.string("access_token")).status == .noContent)
                #expect(try await app.built.store.read { try await $0.cognitoPassword(sub: sub) } == nil)
            }
        }
    }

    @Test func aPasswordTheUserSetSurvivesALaterSocialSignIn() async throws {
        let moto = try #require(MotoCognito.shared)
        let capture = LogCapture()
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(moto, issuer, logger: capture.logger(level: .debug))
            let email = Self.email("ida")
            try await app.live { client in
                let token = Self.google(issuer, subject: "g-ida", email: email)
                #expect(try await client.send(.post, "/auth/google", json: ["id_token": .string(token)]).status == .ok)
                // The user sets a password of their own through forgot-password.
                #expect(try await client.send(.post, "/auth/password/forgot", json: ["email": .string(email)]).status == .ok)
                let code = try await moto.latestCode("reset", for: email)
                #expect(
                    try await client.send(
                        .post,
                        "/auth/password/reset",
                        json: ["email": .string(email), "code": .string(code), "new_password": "password7"]
                    ).status == .ok
                )
                let google = try await client.send(.post, "/auth/google", json: ["id_token": .string(token)])
                #expect(google.status == .conflict && google.errorCode == "conflict")
                #expect(google.bodyText.contains("sign in with your email and password"))
                #expect(
                    try await client.send(.post, "/auth/signin", json: ["email": .string(email), "password": "password7"]).status == .ok,
                    "the user's password survives"
                )
            }
        }
        #expect(capture.text.contains("the stored password was refused"))
        #expect(!capture.text.contains("password7"))
    }

    @Test func aNonAuthoritativeGoogleEmailNeitherLinksNorReplaces() async throws {
        let moto = try #require(MotoCognito.shared)
        try await FakeIssuer.run { issuer in
            let app = try await Self.app(moto, issuer)
            try await app.live { client in
                // A Gatehouse-managed account (made by Apple) is not joined by a consumer Google account.
                let hank = Self.email("hank")
                let apple = try await client.send(
                    .post,
                    "/auth/apple",
                    json: [
                        "identity_token": .string(issuer.token(.apple, audience: Clients.appleBundle, subject: "a-hank", email: hank))
                    ]
                )
                #expect(apple.status == .ok)
                let google = try await client.send(
                    .post,
                    "/auth/google",
                    json: ["id_token": .string(Self.google(issuer, subject: "g-hank", email: hank, hd: nil))]
                )
                #expect(google.status == .conflict && google.errorCode == "conflict")

                // An unconfirmed sign-up is not deleted for it: its owner can still confirm it.
                let ivy = Self.email("ivy")
                #expect(try await client.send(.post, "/auth/signup", json: ["email": .string(ivy), "password": "password1"]).status == .created)
                let claim = try await client.send(
                    .post,
                    "/auth/google",
                    json: ["id_token": .string(Self.google(issuer, subject: "g-ivy", email: ivy, hd: nil))]
                )
                #expect(claim.status == .conflict)
                let code = try await moto.latestCode("signup", for: ivy)
                #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(ivy), "code": .string(code)]).status == .ok)
                #expect(try await client.send(.post, "/auth/signin", json: ["email": .string(ivy), "password": "password1"]).status == .ok)

                // A new user from it keeps the address unverified, so Apple's later does not join it.
                let jo = Self.email("jo")
                let created = try await client.send(
                    .post,
                    "/auth/google",
                    json: ["id_token": .string(Self.google(issuer, subject: "g-jo", email: jo, hd: nil))]
                )
                #expect(created.status == .ok && created["is_new_user"] == .bool(true))
                let me = try await client.send(.get, "/me", bearer: created.string("access_token"))
                #expect(me.string("email") == jo && me["email_verified"] == .bool(false))
                let later = try await client.send(
                    .post,
                    "/auth/apple",
                    json: [
                        "identity_token": .string(issuer.token(.apple, audience: Clients.appleBundle, subject: "a-jo", email: jo))
                    ]
                )
                #expect(later.status == .conflict)
            }
        }
    }
}

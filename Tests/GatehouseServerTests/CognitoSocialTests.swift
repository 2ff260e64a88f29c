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

/// Sign in with Google and Apple on Cognito: the seeds' exchange with their bugs fixed.
@Suite(
    "Cognito (moto): social sign-in",
    .serialized,
    .enabled(if: MotoCognito.isAvailable),
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct CognitoSocialTests {
    @Test func newReturningAndEmaillessAppleSignInsFindTheSameUser() async throws {
        let moto = try #require(MotoCognito.shared)
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, realTime: true) { moto.configure(&$0) }
            let email = CognitoProviderTests.email("dana")
            try await app.live { client in
                let first = try await client.send(
                    .post,
                    "/auth/apple",
                    json: [
                        "identity_token": .string(issuer.token(.apple, audience: Clients.appleBundle, subject: "apple-dana", email: email)),
                        "full_name": "Dana",
                    ]
                )
                #expect(first.status == .ok && first["is_new_user"] == .bool(true))
                let me = try await client.send(.get, "/me", bearer: first.string("access_token"))
                #expect(me.string("email") == email && me.string("full_name") == "Dana")
                #expect(me["identities"]?.arrayValue?.first?.objectValue?["provider"] == "apple")
                // Apple leaves the email out of later tokens: the link finds the same Cognito user.
                let later = try await client.send(
                    .post,
                    "/auth/apple",
                    json: [
                        "identity_token": .string(issuer.token(.apple, audience: Clients.appleBundle, subject: "apple-dana", email: nil))
                    ]
                )
                #expect(later.status == .ok && later["is_new_user"] == .bool(false))
                #expect(try await client.send(.get, "/me", bearer: later.string("access_token")).string("sub") == me.string("sub"))
                // Google (a Workspace account) with the same verified email joins the account Gatehouse manages.
                let google = try await client.send(
                    .post,
                    "/auth/google",
                    json: [
                        "id_token": .string(CognitoSocialAccountTests.google(issuer, subject: "google-dana", email: email))
                    ]
                )
                #expect(google.status == .ok && google["is_new_user"] == .bool(false))
                #expect(try await client.send(.get, "/me", bearer: google.string("access_token")).string("sub") == me.string("sub"))
                // Deleting revokes the Apple token and removes the user at Cognito.
                #expect(try await client.send(.delete, "/me", bearer: google.string("access_token")).status == .noContent)
                let again = try await client.send(
                    .post,
                    "/auth/apple",
                    json: [
                        "identity_token": .string(issuer.token(.apple, audience: Clients.appleBundle, subject: "apple-dana", email: email))
                    ]
                )
                #expect(again["is_new_user"] == .bool(true))
            }
        }
    }

    @Test func unverifiedEmailsAndPasswordAccountsAreNeverMerged() async throws {
        let moto = try #require(MotoCognito.shared)
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, realTime: true) { c in
                moto.configure(&c)
                CognitoProviderTests.relaxedMail(&c)
            }
            try await app.live { client in
                // An unverified Google email cannot become a Cognito user.
                let unverified = try await client.send(
                    .post,
                    "/auth/google",
                    json: [
                        "id_token": .string(
                            issuer.token(
                                .google,
                                audience: Clients.googleWeb,
                                subject: "g-unverified",
                                email: CognitoProviderTests.email("eve"),
                                emailVerified: false
                            )
                        )
                    ]
                )
                #expect(unverified.status == .forbidden)

                // Pre-hijack: an attacker's unconfirmed sign-up with the victim's address loses.
                let victim = CognitoProviderTests.email("victim")
                #expect(try await client.send(.post, "/auth/signup", json: ["email": .string(victim), "password": "attacker1"]).status == .created)
                let owner = try await client.send(
                    .post,
                    "/auth/google",
                    json: [
                        "id_token": .string(CognitoSocialAccountTests.google(issuer, subject: "g-victim", email: victim))
                    ]
                )
                #expect(owner.status == .ok && owner["is_new_user"] == .bool(true))
                #expect(
                    try await client.send(.post, "/auth/signin", json: ["email": .string(victim), "password": "attacker1"]).errorCode
                        == "invalid_credentials"
                )
                let code = try await moto.latestCode("signup", for: victim)
                #expect(
                    try await client.send(.post, "/auth/confirm", json: ["email": .string(victim), "code": .string(code)]).errorCode
                        == "code_mismatch"
                )

                // A confirmed password account is not taken over: its password keeps working.
                let holder = CognitoProviderTests.email("frank")
                _ = try await client.send(.post, "/auth/signup", json: ["email": .string(holder), "password": "password1"])
                let holderCode = try await moto.latestCode("signup", for: holder)
                #expect(try await client.send(.post, "/auth/confirm", json: ["email": .string(holder), "code": .string(holderCode)]).status == .ok)
                let google = try await client.send(
                    .post,
                    "/auth/google",
                    json: [
                        "id_token": .string(CognitoSocialAccountTests.google(issuer, subject: "g-frank", email: holder))
                    ]
                )
                #expect(google.status == .conflict && google.errorCode == "conflict")
                #expect(try await client.send(.post, "/auth/signin", json: ["email": .string(holder), "password": "password1"]).status == .ok)
            }
        }
    }

    @Test func concurrentSignInsOfOneUserAllSucceed() async throws {
        let moto = try #require(MotoCognito.shared)
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, realTime: true) { moto.configure(&$0) }
            let email = CognitoProviderTests.email("gina")
            try await app.live { client in
                let token = CognitoSocialAccountTests.google(issuer, subject: "g-gina", email: email)
                #expect(try await client.send(.post, "/auth/google", json: ["id_token": .string(token)]).status == .ok)
                // Each exchange signs in with the password the first one set and stored: serialised, none fails.
                let statuses = try await withThrowingTaskGroup(of: HTTPResponse.Status.self) { group in
                    for _ in 0..<6 {
                        group.addTask { try await client.send(.post, "/auth/google", json: ["id_token": .string(token)]).status }
                    }
                    return try await group.reduce(into: []) { $0.append($1) }
                }
                #expect(statuses.allSatisfy { $0 == .ok }, "\(statuses)")
            }
        }
    }
}

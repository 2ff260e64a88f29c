import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// Which provider-verified addresses may join an existing account or claim an address (embedded
/// pool): Google only where it is authoritative for the address (gmail.com, googlemail.com, or a
/// Workspace account with `hd`), Apple always. A consumer Google account registered with some other
/// address says `email_verified` about a mailbox Google does not control.
@Suite("Social: only an authoritative provider email links", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SocialLinkingTests {
    typealias V = SocialVerificationTests

    static func sub(_ reply: Reply) throws -> String? {
        try CompactJWS(parsing: reply.string("id_token")).claims["sub"]?.stringValue
    }

    /// A Google token for `email` with `email_verified: true`, with `hd` when given.
    static func google(_ issuer: FakeIssuer, subject: String, email: String, hd: String? = nil) -> String {
        let claims = issuer.standardClaims(.google, audience: Clients.googleWeb, subject: subject, email: email)
        return issuer.token(.google, claims: claims, changing: hd.map { ["hd": .string($0)] } ?? [:])
    }

    @Test(arguments: TestDatabase.available)
    func aGoogleVerifiedEmailOutsideGooglesDomainsDoesNotLink(_ database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let password = try await client.signedIn(app, email: "alice@example.com")
                let google = try await V.google(client, Self.google(issuer, subject: "g-alice", email: "alice@example.com"))
                #expect(google.status == .ok && google["is_new_user"] == .bool(true))
                let (googleSub, passwordSub) = (try Self.sub(google), try Self.sub(password))
                #expect(googleSub != passwordSub, "a separate account")
                let me = try await client.send(.get, "/me", bearer: google.string("access_token"))
                #expect(me.string("email") == "alice@example.com" && me["email_verified"] == .bool(false), "shown, not vouched for")
                // The password account is untouched: one identity, and its password still works.
                let owner = try await client.send(.get, "/me", bearer: password.string("access_token"))
                let providers = (owner.object["identities"]?.arrayValue ?? []).compactMap { $0.objectValue?["provider"]?.stringValue }
                #expect(providers == ["password"])
                #expect(
                    try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"]).status == .ok
                )
                // The same Google account again finds its own account, not the password one.
                let again = try await V.google(client, Self.google(issuer, subject: "g-alice", email: "alice@example.com"))
                let againSub = try Self.sub(again)
                #expect(again["is_new_user"] == .bool(false) && againSub == googleSub)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aNewAccountFromANonAuthoritativeEmailDoesNotHoldTheAddress(_ database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let google = try await V.google(client, Self.google(issuer, subject: "g-bob", email: "bob@example.com"))
                #expect(google.status == .ok && google["is_new_user"] == .bool(true))
                // Apple (authoritative for what it verified) with that address does not join the Google-made account.
                let apple = try await V.apple(client, issuer.token(.apple, audience: Clients.appleBundle, subject: "a-bob", email: "bob@example.com"))
                let (appleSub, googleSub) = (try Self.sub(apple), try Self.sub(google))
                #expect(apple.status == .ok && apple["is_new_user"] == .bool(true) && appleSub != googleSub)
                // Nor does a password sign-up collide with one: it gets its code and its own account.
                let carl = try await V.google(client, Self.google(issuer, subject: "g-carl", email: "carl@example.com"))
                #expect(carl.status == .ok && carl["is_new_user"] == .bool(true))
                let password = try await client.signedIn(app, email: "carl@example.com")
                let (passwordSub, carlSub) = (try Self.sub(password), try Self.sub(carl))
                #expect(password.status == .ok && passwordSub != carlSub)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func aWorkspaceOrGmailAddressLinks(_ database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let work = try await client.signedIn(app, email: "erin@example.com")
                let workspace = try await V.google(client, Self.google(issuer, subject: "g-erin", email: "Erin@Example.com", hd: "example.com"))
                let (workspaceSub, workSub) = (try Self.sub(workspace), try Self.sub(work))
                #expect(workspace.status == .ok && workspace["is_new_user"] == .bool(false) && workspaceSub == workSub)

                let personal = try await client.signedIn(app, email: "erin.p@gmail.com")
                let gmail = try await V.google(client, Self.google(issuer, subject: "g-erin-p", email: "erin.p@gmail.com"))
                let (gmailSub, personalSub) = (try Self.sub(gmail), try Self.sub(personal))
                #expect(gmail.status == .ok && gmail["is_new_user"] == .bool(false) && gmailSub == personalSub)
                let me = try await client.send(.get, "/me", bearer: gmail.string("access_token"))
                #expect(me["email_verified"] == .bool(true))

                let legacy = try await client.signedIn(app, email: "erin.l@googlemail.com")
                let googlemail = try await V.google(client, Self.google(issuer, subject: "g-erin-l", email: "erin.l@googlemail.com"))
                let (googlemailSub, legacySub) = (try Self.sub(googlemail), try Self.sub(legacy))
                #expect(googlemail["is_new_user"] == .bool(false) && googlemailSub == legacySub)
            }
        }
    }

    @Test(arguments: TestDatabase.available)
    func anUnconfirmedSignUpIsNotReplacedByANonAuthoritativeEmail(_ database: TestDatabase) async throws {
        try await FakeIssuer.run { issuer in
            let (app, _) = try await TestApp.social(issuer: issuer, database: database)
            try await app.router { client in
                let signUp = try await client.send(.post, "/auth/signup", json: ["email": "fay@example.com", "password": "correct horse 9"])
                #expect(signUp.status == .created)
                let code = try #require(await app.mailer.latestCode(to: "fay@example.com", kind: "confirm_signup"))
                let google = try await V.google(client, Self.google(issuer, subject: "g-fay", email: "fay@example.com"))
                #expect(google.status == .ok && google["is_new_user"] == .bool(true))
                #expect(try Self.sub(google) != signUp.string("user_sub"))
                // Whoever owns the mailbox can still finish the sign-up and sign in with its password.
                #expect(try await client.send(.post, "/auth/confirm", json: ["email": "fay@example.com", "code": .string(code)]).status == .ok)
                let signIn = try await client.send(.post, "/auth/signin", json: ["email": "fay@example.com", "password": "correct horse 9"])
                let signedInSub = try Self.sub(signIn)
                #expect(signIn.status == .ok && signedInSub == signUp.string("user_sub"))
            }
        }
    }
}

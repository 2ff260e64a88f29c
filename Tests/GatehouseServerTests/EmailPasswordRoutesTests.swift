import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

@Suite("Routes: email and password", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct EmailPasswordRoutesTests {
    /// One app per database for the tests that need nothing of their own, reset before each.
    static let apps = TestApp.shared()

    @Test func fullJourneyThroughEveryEmailEndpoint() async throws {
        try await Self.apps.router { app, client in
            let signUp = try await client.send(
                .post,
                "/auth/signup",
                json: ["email": "alice@example.com", "password": "correct horse 9", "full_name": "Alice"]
            )
            #expect(signUp.status == .created)
            #expect(signUp["user_confirmed"] == .bool(false))
            #expect(signUp["code_delivery"] == ["medium": "EMAIL", "destination": "a***@e***.com"])
            #expect(!signUp.string("user_sub").isEmpty)
            #expect(signUp.headers[.cacheControl] == "no-store")

            let notConfirmed = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"])
            #expect(notConfirmed.status == .forbidden && notConfirmed.errorCode == "user_not_confirmed")

            let badCode = try await client.send(.post, "/auth/confirm", json: ["email": "alice@example.com", "code": "12345x"])
            #expect(badCode.status == .badRequest && badCode.errorCode == "code_mismatch")

            app.clock.advance(by: 61)
            let resend = try await client.send(.post, "/auth/resend-code", json: ["email": "alice@example.com"])
            #expect(resend.status == .ok && resend["code_delivery"]?.objectValue?["destination"] == "a***@e***.com")
            let tooSoon = try await client.send(.post, "/auth/resend-code", json: ["email": "alice@example.com"])
            #expect(tooSoon.status == .tooManyRequests && tooSoon.errorCode == "too_many_requests")
            #expect(Int(tooSoon.headers[.retryAfter] ?? "") ?? 0 > 0)

            let code = try #require(await app.mailer.latestCode(to: "alice@example.com", kind: "confirm_signup"))
            let confirm = try await client.send(.post, "/auth/confirm", json: ["email": "alice@example.com", "code": .string(code)])
            #expect(confirm.status == .ok && confirm["confirmed"] == .bool(true))

            let wrong = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "wrong horse 9"])
            let unknown = try await client.send(.post, "/auth/signin", json: ["email": "nobody@example.com", "password": "wrong horse 9"])
            #expect(wrong.status == .unauthorized && wrong.errorCode == "invalid_credentials")
            #expect(unknown.status == wrong.status && unknown.bodyText == wrong.bodyText, "no enumeration")

            let signIn = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"])
            #expect(signIn.status == .ok && signIn.headers[.cacheControl] == "no-store")
            #expect(signIn["token_type"] == "Bearer" && signIn["expires_in"] == 3600 && signIn["is_new_user"] == nil)
            let access = signIn.string("access_token")

            let me = try await client.send(.get, "/me", bearer: access)
            #expect(me.status == .ok && me.string("email") == "alice@example.com" && me.string("full_name") == "Alice")

            let refreshed = try await client.send(.post, "/auth/refresh", json: ["refresh_token": signIn["refresh_token"]!])
            #expect(refreshed.status == .ok && refreshed.string("refresh_token") != signIn.string("refresh_token"))
            let stale = try await client.send(.post, "/auth/refresh", json: ["refresh_token": "ghr1.AAAA"])
            #expect(stale.status == .unauthorized && stale.errorCode == "invalid_grant")

            let change = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": "correct horse 9", "new_password": "new horse 10"],
                bearer: refreshed.string("access_token")
            )
            #expect(change.status == .ok && change["changed"] == .bool(true))
            let wrongCurrent = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": "nope nope 1", "new_password": "new horse 11"],
                bearer: refreshed.string("access_token")
            )
            #expect(wrongCurrent.status == .unauthorized && wrongCurrent.errorCode == "invalid_credentials")
            let weak = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": "new horse 10", "new_password": "short"],
                bearer: refreshed.string("access_token")
            )
            #expect(weak.status == .badRequest && weak.errorCode == "invalid_password")
            let noBearer = try await client.send(
                .post,
                "/auth/password/change",
                json: ["current_password": "new horse 10", "new_password": "new horse 12"]
            )
            #expect(noBearer.status == .unauthorized && noBearer.errorCode == "unauthorized")

            app.clock.advance(by: 61)
            let forgot = try await client.send(.post, "/auth/password/forgot", json: ["email": "alice@example.com"])
            let forgotUnknown = try await client.send(.post, "/auth/password/forgot", json: ["email": "nobody@example.com"])
            #expect(forgot.status == .ok && forgotUnknown.status == .ok)
            #expect(forgot["code_delivery"]?.objectValue?["medium"] == forgotUnknown["code_delivery"]?.objectValue?["medium"])
            let resetCode = try #require(await app.mailer.latestCode(to: "alice@example.com", kind: "reset_password"))
            let badReset = try await client.send(
                .post,
                "/auth/password/reset",
                json: ["email": "alice@example.com", "code": "000000", "new_password": "reset horse 13"]
            )
            #expect(badReset.status == .badRequest && ["code_mismatch"].contains(badReset.errorCode ?? ""))
            let reset = try await client.send(
                .post,
                "/auth/password/reset",
                json: ["email": "alice@example.com", "code": .string(resetCode), "new_password": "reset horse 13"]
            )
            #expect(reset.status == .ok && reset["reset"] == .bool(true))
            let afterReset = try await client.send(.get, "/me", bearer: refreshed.string("access_token"))
            #expect(afterReset.status == .unauthorized, "reset ends every session")

            let again = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "reset horse 13"])
            let signOut = try await client.send(.post, "/auth/signout", json: ["refresh_token": again["refresh_token"]!])
            #expect(signOut.status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: again.string("access_token")).status == .unauthorized)

            let third = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "reset horse 13"])
            let fourth = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "reset horse 13"])
            let all = try await client.send(.post, "/auth/signout/all", bearer: third.string("access_token"))
            #expect(all.status == .noContent)
            #expect(try await client.send(.get, "/me", bearer: fourth.string("access_token")).status == .unauthorized)
            #expect(try await client.send(.post, "/auth/signout/all").status == .unauthorized)
        }
    }

    @Test func expiredCodesAndPolicyErrorsHaveTheirCodes() async throws {
        try await Self.apps.router { app, client in
            let weak = try await client.send(.post, "/auth/signup", json: ["email": "bob@example.com", "password": "password1"])
            #expect(weak.status == .badRequest && weak.errorCode == "invalid_password")
            let badEmail = try await client.send(.post, "/auth/signup", json: ["email": "bob@", "password": "correct horse 9"])
            #expect(badEmail.status == .badRequest && badEmail.errorCode == "invalid_request")
            _ = try await client.send(.post, "/auth/signup", json: ["email": "bob@example.com", "password": "correct horse 9"])
            let code = try #require(await app.mailer.latestCode(to: "bob@example.com", kind: "confirm_signup"))
            app.clock.advance(by: 25 * 3600)
            let expired = try await client.send(.post, "/auth/confirm", json: ["email": "bob@example.com", "code": .string(code)])
            #expect(expired.status == .badRequest && expired.errorCode == "code_expired")
        }
    }

    @Test func bruteForceReaches429WithRetryAfter() async throws {
        try await Self.apps.router { app, client in
            _ = try await client.signedIn(app)
            var statuses: [Int] = []
            for _ in 0..<8 {
                statuses.append(
                    try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "guess 12345"]).status.code
                )
            }
            #expect(statuses.prefix(6).allSatisfy { $0 == 401 })
            #expect(statuses.last == 429)
            let blocked = try await client.send(.post, "/auth/signin", json: ["email": "alice@example.com", "password": "correct horse 9"])
            #expect(blocked.status == .tooManyRequests && blocked.headers[.retryAfter] != nil)
        }
    }

    @Test func signUpOfARegisteredAddressIsIndistinguishable() async throws {
        try await Self.apps.router { app, client in
            let first = try await client.send(.post, "/auth/signup", json: ["email": "carol@example.com", "password": "correct horse 9"])
            let second = try await client.send(.post, "/auth/signup", json: ["email": "carol@example.com", "password": "correct horse 9"])
            #expect(first.status == second.status)
            #expect(Set(first.object.keys) == Set(second.object.keys))
            #expect(first["code_delivery"] == second["code_delivery"] && first["user_confirmed"] == second["user_confirmed"])
        }
    }

    /// `ｗｉｄｅ@example.com` (full-width letters) is `wide@example.com` after NFKC: signing it up
    /// reaches the existing account (its owner gets the notice) and creates no second user.
    @Test(arguments: TestDatabase.available)
    func fullWidthAddressIsTheSameAccount(_ database: TestDatabase) async throws {
        try await Self.apps.router(database) { app, client in
            let owner = try await client.signedIn(app, email: "wide@example.com")
            #expect(owner.status == .ok)
            app.mailer.clear()
            app.clock.advance(by: 61)  // past the per-address mail limit the confirmation used
            let again = try await client.send(.post, "/auth/signup", json: ["email": "ｗｉｄｅ@example.com", "password": "other horse 10"])
            #expect(again.status == .created)
            let mail = await app.mailer.all
            #expect(mail.map(\.kind) == ["already_registered"] && mail.first?.to == "wide@example.com")
            #expect(try await app.built.store.read { try await $0.user(emailKey: "ｗｉｄｅ@example.com") } == nil, "no second user row")
            let signIn = try await client.send(.post, "/auth/signin", json: ["email": "ＷＩＤＥ＠example.com", "password": "correct horse 9"])
            #expect(signIn.status == .ok)
            let me = try await client.send(.get, "/me", bearer: signIn.string("access_token"))
            let ownerMe = try await client.send(.get, "/me", bearer: owner.string("access_token"))
            #expect(me.string("email") == "wide@example.com" && !me.string("sub").isEmpty && me.string("sub") == ownerMe.string("sub"))
        }
    }
}

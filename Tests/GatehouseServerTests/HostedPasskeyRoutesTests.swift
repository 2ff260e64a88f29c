import Foundation
import GatehouseCore
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

/// The hosted sign-in page's passkeys in process (`Tests/browser/hosted_ui_passkeys.py` signs in with them
/// in Chromium): offered only where the pages' origin is an accepted one, with the one script the page's
/// policy then allows, and the passkey form checked as every hosted form is.
@Suite("Hosted UI: passkeys on the sign-in page", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct HostedPasskeyRoutesTests {
    static func app(origins: [String] = []) async throws -> TestApp {
        try await TestApp.make { c in
            c.hostedUI = true
            c.callbackURLs = [HostedUIRoutesTests.callback]
            c.passkeys.rpID = "gatehouse.test"
            c.passkeys.origins = origins
        }
    }

    @Test func offeredOnTheIssuersOriginWithItsScriptAndNothingMore() async throws {
        let app = try await Self.app()
        try await app.router { client in
            let page = try await client.send(.get, "/login?" + HostedUIRoutesTests.authorizeQuery())
            #expect(page.status == .ok && page.bodyText.contains(#"id="passkey-signin""#) && page.bodyText.contains(#"action="/login/passkey""#))
            // WebAuthn's JSON forms first (the scripts run in order), then the page's own.
            let scripts = ["webauthn-json.js", "hosted-passkey.js"].map { #"<script src="/assets/\#($0)" defer></script>"# }
            #expect(page.bodyText.contains(scripts.joined(separator: "\n")))
            #expect(page.bodyText.contains(#"autocomplete="username webauthn""#))
            let policy = page.headers[.contentSecurityPolicy] ?? ""
            #expect(policy.contains("script-src 'self'") && policy.contains("connect-src 'self'") && !policy.contains("unsafe"), "\(policy)")
            let script = try await client.send(.get, "/assets/hosted-passkey.js")
            #expect(script.status == .ok && script.headers[.contentType] == "text/javascript; charset=utf-8")
            #expect(script.bodyText.contains("/auth/passkey/options") && script.bodyText.contains("mediation: 'conditional'"))
            let forms = try await client.send(.get, "/assets/webauthn-json.js")
            #expect(forms.status == .ok && forms.bodyText.contains("window.GatehouseWebAuthn"))
            // The other pages carry no passkey controls.
            let signup = try await client.send(.get, "/signup?" + HostedUIRoutesTests.authorizeQuery())
            #expect(!signup.bodyText.contains("passkey"))

            // The passkey form is checked as every hosted form: without its browser's token nothing is done.
            let refused = try await client.send(
                .post,
                "/login/passkey",
                raw: HostedUIRoutesTests.authorizeQuery() + "&credential=%7B%7D",
                contentType: "application/x-www-form-urlencoded"
            )
            #expect(refused.status == .forbidden && refused.headers[.location] == nil)
            // With it, a credential that is not one is the sign-in page again, with the refusal and no autofill.
            let form = try #require(HostedUIRoutesTests.cookie(page, "gatehouse-form"))
            let csrf = try #require(page.bodyText.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
            let garbage = try await client.send(
                .post,
                "/login/passkey",
                raw: HostedUIRoutesTests.authorizeQuery() + "&csrf=\(csrf)&credential=%7B%22id%22%3A1%7D",
                contentType: "application/x-www-form-urlencoded",
                headers: [.cookie: form]
            )
            #expect(garbage.status == .badRequest && garbage.headers[.location] == nil, "\(garbage.bodyText)")
            #expect(garbage.bodyText.contains(#"role="alert""#) && garbage.bodyText.contains(#"data-autofill="off""#))
            #expect(HostedUIRoutesTests.cookie(garbage, "gatehouse-session") == nil)
        }
    }

    @Test func notOfferedWhereThePagesOriginIsNotAnAcceptedOne() async throws {
        let app = try await Self.app(origins: ["https://app.gatehouse.test"])
        try await app.router { client in
            let page = try await client.send(.get, "/login?" + HostedUIRoutesTests.authorizeQuery())
            #expect(page.status == .ok && !page.bodyText.contains("passkey") && !page.bodyText.contains("<script"))
            #expect(page.headers[.contentSecurityPolicy]?.contains("script-src 'none'") == true)
            let form = try #require(HostedUIRoutesTests.cookie(page, "gatehouse-form"))
            let csrf = try #require(page.bodyText.firstMatch(of: /name="csrf" value="([^"]+)"/)).1
            let post = try await client.send(
                .post,
                "/login/passkey",
                raw: HostedUIRoutesTests.authorizeQuery() + "&csrf=\(csrf)&credential=%7B%7D",
                contentType: "application/x-www-form-urlencoded",
                headers: [.cookie: form]
            )
            #expect(post.status == .notFound || post.status == .methodNotAllowed, "\(post.status)")
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseTesting
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import GatehouseServer

@Suite("Web page", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct WebPageTests {
    static let webDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/GatehouseServer/Resources/Web")

    /// Every file of the page is served, byte for byte as in the repository (a file added to
    /// Resources/Web must also be listed in Package.swift and WebAssets).
    @Test func theEmbeddedCopyIsTheResourceDirectory() throws {
        let names = try FileManager.default.contentsOfDirectory(atPath: Self.webDirectory.path).filter { !$0.hasPrefix(".") }.sorted()
        #expect(names == WebAssets.files.keys.sorted(), "list new files in Package.swift (.embedInCode) and WebAssets")
        for name in names {
            let onDisk = try Data(contentsOf: Self.webDirectory.appendingPathComponent(name))
            #expect(Data(WebAssets.files[name]?.bytes ?? []) == onDisk, "\(name)")
        }
    }

    /// The policies, exactly (one type builds both; these are the strings the pages always sent).
    @Test func thePoliciesAreExactlyThese() {
        #expect(
            PageSecurityPolicy.webPage(googleButton: false, appleButton: false).description
                == "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; frame-src 'none'; "
                + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"
        )
        #expect(
            PageSecurityPolicy.webPage(googleButton: true, appleButton: true).description
                == "default-src 'none'; script-src 'self' https://accounts.google.com/gsi/client https://appleid.cdn-apple.com; "
                + "style-src 'self' https://accounts.google.com/gsi/style; img-src 'self' data: https://*.googleusercontent.com; "
                + "connect-src 'self' https://accounts.google.com/gsi/; frame-src https://accounts.google.com/gsi/ https://appleid.apple.com; "
                + "base-uri 'none'; form-action 'self'; frame-ancestors 'none'; object-src 'none'"
        )
        let callback = PageSecurityPolicy.pinnedInline(script: "a", style: "b").description
        #expect(callback.hasPrefix("default-src 'none'; script-src 'sha256-"))
        #expect(callback.hasSuffix("; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"))
    }

    @Test func thePhonePanelIsOfferedOnlyWherePhoneSignInCanAnswer() async throws {
        let on = try await TestApp.make { $0.smsCountries = SMSCountryPolicy(allowedCountries: ["GB"]) }
        let onPage = try await on.router { try await $0.send(.get, "/") }
        #expect(
            onPage.bodyText.contains("&quot;phone_sign_in&quot;:true") || onPage.bodyText.contains(#""phone_sign_in":true"#),
            "\(onPage.bodyText.prefix(600))"
        )
        var cognito = GatehouseConfiguration()
        cognito.smsCountries = SMSCountryPolicy(allowedCountries: ["GB"])
        cognito.identityProvider = .cognito
        #expect(!String(decoding: WebPage(configuration: cognito).index, as: UTF8.self).contains("phone_sign_in"))
    }

    @Test func servesThePageWithAStrictPolicyAndEscapedConfiguration() async throws {
        let app = try await TestApp.make { c in
            c.googleClientIDs = ["web\"><script>x</script>.apps.googleusercontent.com"]
            c.webGoogleClientID = c.googleClientIDs[0]
        }
        try await app.router { client in
            let page = try await client.send(.get, "/")
            #expect(page.status == .ok && page.headers[.contentType] == "text/html; charset=utf-8")
            let csp = try #require(page.headers[.contentSecurityPolicy])
            #expect(csp.contains("default-src 'none'") && csp.contains("script-src 'self' https://accounts.google.com/gsi/client"))
            #expect(!csp.contains("unsafe-inline") && !csp.contains("unsafe-eval") && csp.contains("frame-ancestors 'none'"))
            #expect(page.bodyText.contains(#"name="gatehouse-config""#))
            #expect(!page.bodyText.contains("phone_sign_in"), "no phone panel without GATEHOUSE_SMS_COUNTRIES")
            #expect(!page.bodyText.contains("<script>x</script>"), "configuration is escaped into the attribute")
            #expect(page.headers[.init("X-Frame-Options")!] == "DENY")
            for (name, asset) in WebAssets.files where name != "index.html" {
                let reply = try await client.send(.get, "/assets/\(name)")
                #expect(reply.status == .ok && reply.headers[.contentType] == asset.contentType, "\(name)")
            }
            #expect(try await client.send(.get, "/assets/index.html").status == .notFound)
            #expect(try await client.send(.get, "/assets/..%2Fmaster.key").status == .notFound)
            #expect(try await client.send(.get, "/assets/nope.js").errorCode == "not_found")
            #expect(try await client.send(.post, "/assets/app.js").status == .methodNotAllowed)
        }
    }

    /// Assets come from Hummingbird's FileMiddleware: cacheable with an ETag, revalidated with a 304
    /// that keeps the security headers; the page itself is never cached without revalidation.
    @Test func assetsAreCacheableAndRevalidated() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            #expect(try await client.send(.get, "/").headers[.cacheControl] == "no-cache")
            let asset = try await client.send(.get, "/assets/app.js")
            #expect(asset.status == .ok && asset.headers[.cacheControl] == "public, max-age=300")
            #expect(asset.bodyText == String(decoding: WebAssets.files["app.js"]?.bytes ?? [], as: UTF8.self))
            let etag = try #require(asset.headers[.eTag])
            #expect(asset.headers[.contentSecurityPolicy] != nil && asset.headers[.init("X-Content-Type-Options")!] == "nosniff")
            let again = try await client.send(.get, "/assets/app.js", headers: [.ifNoneMatch: etag])
            #expect(again.status == .notModified && again.bodyText.isEmpty)
            #expect(again.headers[.init("X-Frame-Options")!] == "DENY" && again.headers[.init("Referrer-Policy")!] == "no-referrer")
            #expect(try await client.send(.get, "/assets/app.css", headers: [.ifNoneMatch: etag]).status == .ok, "each file its own tag")
        }
    }

    /// With GATEHOUSE_WEB_DIR, a file there is served from disk on each request (no-cache); one
    /// missing there falls back to the embedded copy; only the page's own files are served.
    @Test func theDevelopmentDirectoryServesItsFilesFirst() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("web-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try Data("body { color: red }".utf8).write(to: directory.appendingPathComponent("app.css"))
        try Data("<p>raw</p>".utf8).write(to: directory.appendingPathComponent("index.html"))
        try Data("secret".utf8).write(to: directory.appendingPathComponent("other.txt"))
        let app = try await TestApp.make { $0.webDirectory = directory.path }
        try await app.router { client in
            let css = try await client.send(.get, "/assets/app.css")
            #expect(css.status == .ok && css.bodyText == "body { color: red }" && css.headers[.cacheControl] == "no-cache")
            #expect(css.headers[.contentType] == WebAssets.files["app.css"]?.contentType)
            let js = try await client.send(.get, "/assets/app.js")
            #expect(js.status == .ok && js.headers[.cacheControl] == "public, max-age=300")
            #expect(try await client.send(.get, "/assets/index.html").errorCode == "not_found")
            #expect(try await client.send(.get, "/assets/other.txt").errorCode == "not_found")
        }
    }

    @Test func providersStayOffThePolicyUnlessConfigured() async throws {
        let app = try await TestApp.make()
        try await app.router { client in
            let csp = try await client.send(.get, "/").headers[.contentSecurityPolicy] ?? ""
            #expect(!csp.contains("google") && !csp.contains("apple") && csp.contains("frame-src 'none'"))
        }
    }
}

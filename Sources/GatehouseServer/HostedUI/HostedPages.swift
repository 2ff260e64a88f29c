import GatehouseCore
import HTTPTypes
import Hummingbird
import Mustache
import NIOCore

/// Renders the hosted UI's pages from the one embedded template, with the headers every page carries:
/// a strict Content-Security-Policy (no script but the passkey one where passkeys are offered,
/// `frame-ancestors 'none'`), `no-store`, no referrer.
struct HostedPages: Sendable {
    let appName: String
    let passwordHint: String
    let contentSecurityPolicy: String
    /// The sign-in page offers passkeys: they are on and the page's origin (the issuer's) is an accepted one.
    let offersPasskeys: Bool
    private let template: MustacheTemplate

    init(appName: String, passwordPolicy: PasswordPolicy, callbackURLs: [String], passkeys: Bool = false) {
        self.appName = appName
        passwordHint = passwordPolicy.summary
        offersPasskeys = passkeys
        contentSecurityPolicy = PageSecurityPolicy.hostedPages(callbackURLs: callbackURLs, passkeys: passkeys).description
        // The template is part of the binary and covered by the tests; it always parses.
        template = try! MustacheTemplate(string: String(decoding: PackageResources.page_mustache, as: UTF8.self))
    }

    /// The page as a response.
    /// - Parameters:
    ///   - page: The screen.
    ///   - status: The status (a refused form is 400 or 429, as the API answers it).
    ///   - cookies: `Set-Cookie` fields to add.
    /// - Returns: The response.
    func response(_ page: HostedPage, status: HTTPResponse.Status = .ok, cookies: [HTTPField] = []) -> Response {
        let html = template.render(page.context(appName: appName, passwordHint: passwordHint, passkeys: offersPasskeys))
        var headers: HTTPFields = [
            .contentType: "text/html; charset=utf-8", .cacheControl: "no-store", .contentSecurityPolicy: contentSecurityPolicy,
            .xContentTypeOptions: "nosniff", .init("Referrer-Policy")!: "no-referrer", .init("X-Frame-Options")!: "DENY",
        ]
        headers.append(contentsOf: cookies)
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(string: html)))
    }
}

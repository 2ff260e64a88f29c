import Foundation
import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird
import NIOCore

/// The web page at `/` (sign-up, sign-in, reset, profile): `index.html` with the deployment's
/// configuration filled in. Its assets under `/assets/` are served by `FileMiddleware` (see
/// ``WebPageController``), and its security headers added by ``WebSecurityHeadersMiddleware``.
struct WebPage: Sendable {
    let index: [UInt8]
    /// The page's Content-Security-Policy for this deployment.
    let contentSecurityPolicy: PageSecurityPolicy
    /// Serve files from this directory instead (development: edit and reload without rebuilding).
    let liveDirectory: String?

    init(configuration c: GatehouseConfiguration) {
        self.liveDirectory = c.webDirectory
        var config: [String: JSONValue] = ["issuer": .string(c.resolvedIssuer), "app_name": .string(c.pool.appName)]
        if let google = c.webGoogleClientID { config["google_client_id"] = .string(google) }
        // The rule the server enforces, so the page shows and checks the same one.
        let policy = c.pool.passwordPolicy
        config["password_policy"] = .object([
            "min_length": .number(Double(policy.minLength)), "require_digit": .bool(policy.requireDigit),
            "require_lowercase": .bool(policy.requireLowercase), "require_uppercase": .bool(policy.requireUppercase),
            "require_symbol": .bool(policy.requireSymbol), "summary": .string(policy.summary),
        ])
        // The phone panel shows only where phone sign-in can answer (countries allowed, embedded pool).
        if c.smsCountries.isEnabled, c.identityProvider == .embedded { config["phone_sign_in"] = .bool(true) }
        // Passkey sign-in and registration show where the server verifies them.
        if c.passkeys.rpID != nil, c.identityProvider == .embedded { config["passkeys"] = .bool(true) }
        if let services = c.appleServicesID, !c.allowedAppleAudiences.isEmpty {
            config["apple_services_id"] = .string(services)
            config["apple_redirect_uri"] = .string(c.webAppleRedirectURI ?? c.resolvedIssuer + "/")
        }
        let meta =
            #"<meta name="gatehouse-config" content=""# + AppleCallbackPage.escapeAttribute(JSONValue.object(config).serializedString()) + #"">"#
        let template = String(decoding: WebAssets.files["index.html"]?.bytes ?? [], as: UTF8.self)
        index = Array(template.replacingOccurrences(of: "<!--GATEHOUSE_CONFIG-->", with: meta).utf8)

        contentSecurityPolicy = PageSecurityPolicy.webPage(for: c)
    }

    /// The page, from ``liveDirectory`` if it holds one (read on each request), otherwise the embedded copy.
    /// - Returns: The page, never cached without revalidation.
    func indexResponse() -> Response {
        let headers: HTTPFields = [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"]
        if let liveDirectory, let data = FileManager.default.contents(atPath: liveDirectory + "/index.html") {
            let meta = String(decoding: index, as: UTF8.self).components(separatedBy: "\n").first { $0.contains("gatehouse-config") } ?? ""
            let page = String(decoding: data, as: UTF8.self).replacingOccurrences(of: "<!--GATEHOUSE_CONFIG-->", with: meta)
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(string: page)))
        }
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: index)))
    }
}

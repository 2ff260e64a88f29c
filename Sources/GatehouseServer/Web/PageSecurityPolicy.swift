import Crypto
import Foundation

/// The Content-Security-Policy of every page Gatehouse serves, in one place: nothing inline unless
/// pinned by its hash, and third-party hosts only for what the configuration turns on. (Named apart
/// from Hummingbird's `ContentSecurityPolicy`, whose variadic builder cannot take the host lists a
/// deployment's settings decide.)
struct PageSecurityPolicy: Sendable, CustomStringConvertible {
    private var directives: [(String, [String])]

    var description: String {
        directives.map { name, sources in "\(name) \(sources.isEmpty ? "'none'" : sources.joined(separator: " "))" }.joined(separator: "; ")
    }

    /// The sign-in page's policy for a deployment: Google's hosts when the page shows Google's
    /// button (`GATEHOUSE_WEB_GOOGLE_CLIENT_ID`), Apple's when it shows Sign in with Apple JS (a
    /// services id and Apple audiences).
    /// - Parameter configuration: The deployment's configuration.
    /// - Returns: The policy.
    static func webPage(for configuration: GatehouseConfiguration) -> PageSecurityPolicy {
        webPage(
            googleButton: configuration.webGoogleClientID != nil,
            appleButton: configuration.appleServicesID != nil && !configuration.allowedAppleAudiences.isEmpty
        )
    }

    /// The sign-in page at `/`: its own scripts and styles, and Google's or Apple's sign-in hosts
    /// only when that provider's button is configured.
    /// - Parameters:
    ///   - googleButton: The page shows Google's button (`GATEHOUSE_WEB_GOOGLE_CLIENT_ID`).
    ///   - appleButton: The page shows Sign in with Apple JS (a services id and Apple audiences).
    static func webPage(googleButton: Bool, appleButton: Bool) -> PageSecurityPolicy {
        var script = ["'self'"]
        var style = ["'self'"]
        var frame: [String] = []
        var connect = ["'self'"]
        var image = ["'self'", "data:"]
        if googleButton {
            script.append("https://accounts.google.com/gsi/client")
            style.append("https://accounts.google.com/gsi/style")
            frame.append("https://accounts.google.com/gsi/")
            connect.append("https://accounts.google.com/gsi/")
            image.append("https://*.googleusercontent.com")
        }
        if appleButton {
            script.append("https://appleid.cdn-apple.com")
            frame.append("https://appleid.apple.com")
        }
        return PageSecurityPolicy(directives: [
            ("default-src", []), ("script-src", script), ("style-src", style), ("img-src", image), ("connect-src", connect),
            ("frame-src", frame), ("base-uri", []), ("form-action", ["'self'"]), ("frame-ancestors", []), ("object-src", []),
        ])
    }

    /// The hosted UI's pages: no script, our stylesheet, and forms that may post only to us, whose
    /// answer may redirect only to us or to a registered redirect URI (browsers apply `form-action` to
    /// the redirect after a post, so the registered URIs' origins, or their custom schemes, are listed).
    /// Where the sign-in page offers passkeys, its scripts (`/assets/webauthn-json.js`, `/assets/hosted-passkey.js`) and the
    /// requests it makes (`POST /auth/passkey/options`) are allowed from this origin only.
    /// - Parameters:
    ///   - callbackURLs: The registered redirect URIs.
    ///   - passkeys: The sign-in page offers passkeys.
    static func hostedPages(callbackURLs: [String], passkeys: Bool = false) -> PageSecurityPolicy {
        var targets = ["'self'"]
        for uri in callbackURLs {
            guard let url = URL(string: uri), let scheme = url.scheme?.lowercased() else { continue }
            let source: String
            if scheme == "http" || scheme == "https", let host = url.host {
                let hostPart = host.contains(":") && !host.hasPrefix("[") ? "[\(host)]" : host
                source = "\(scheme)://\(hostPart)" + (url.port.map { ":\($0)" } ?? "")
            } else {
                source = scheme + ":"
            }
            if !targets.contains(source) { targets.append(source) }
        }
        var directives: [(String, [String])] = [
            ("default-src", []), ("script-src", passkeys ? ["'self'"] : []), ("style-src", ["'self'"]), ("img-src", ["'self'", "data:"]),
        ]
        if passkeys { directives.append(("connect-src", ["'self'"])) }
        directives += [("base-uri", []), ("form-action", targets), ("frame-ancestors", []), ("object-src", [])]
        return PageSecurityPolicy(directives: directives)
    }

    /// A page whose only script and style are the given inline ones, pinned by their SHA-256 (the
    /// Apple callback page), that submits no form and cannot be framed.
    /// - Parameters:
    ///   - script: The page's one inline script.
    ///   - style: The page's one inline style sheet.

    static func pinnedInline(script: String, style: String) -> PageSecurityPolicy {
        func hash(_ text: String) -> String { "'sha256-" + Data(SHA256.hash(data: Data(text.utf8))).base64EncodedString() + "'" }
        return PageSecurityPolicy(directives: [
            ("default-src", []), ("script-src", [hash(script)]), ("style-src", [hash(style)]), ("base-uri", []), ("form-action", []),
            ("frame-ancestors", []),
        ])
    }
}

import Hummingbird

/// The web page's files: `Resources/Web/`, embedded into the binary at build time (`.embedInCode`
/// in Package.swift), so the binary serves them on its own.
enum WebAssets {
    /// One embedded file.
    struct Asset: Sendable {
        /// The `Content-Type` it is served with.
        let contentType: String
        /// Its bytes, as in the repository.
        let bytes: [UInt8]
    }

    static let files: [String: Asset] = [
        "index.html": Asset(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        "app.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.app_js),
        "qr.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.qr_js),
        "app.css": Asset(contentType: "text/css; charset=utf-8", bytes: PackageResources.app_css),
        // WebAuthn's JSON forms, for app.js and hosted-passkey.js.
        "webauthn-json.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.webauthn_json_js),
        // The hosted sign-in page's passkey button and autofill (the hosted pages allow no inline script).
        "hosted-passkey.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.hosted_passkey_js),
    ]

    /// The files served under `/assets/`: every file but `index.html`, which is served at `/` with
    /// the deployment's configuration filled in.
    static var assets: [String: Asset] { files.filter { $0.key != "index.html" } }

    /// The content types above by file extension, for `FileMiddleware` (whose own table has no charset).
    static var mediaTypes: [String: MediaType] {
        var types: [String: MediaType] = [:]
        for (name, asset) in files {
            guard let dot = name.lastIndex(of: "."), let type = MediaType(from: asset.contentType) else { continue }
            types[String(name[name.index(after: dot)...])] = type
        }
        return types
    }
}

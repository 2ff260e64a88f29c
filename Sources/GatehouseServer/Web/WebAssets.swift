import Crypto
import Foundation

/// The web page's files: `Resources/Web/`, embedded into the binary at build time (`.embedInCode`
/// in Package.swift), so the binary serves them on its own.
enum WebAssets {
    struct Asset: Sendable {
        let contentType: String
        let bytes: [UInt8]
        /// A short content hash, for ETag and cache busting.
        let version: String

        init(contentType: String, bytes: [UInt8]) {
            self.contentType = contentType
            self.bytes = bytes
            version = SHA256.hash(data: bytes).prefix(8).map { String(format: "%02x", $0) }.joined()
        }
    }

    static let files: [String: Asset] = [
        "index.html": Asset(contentType: "text/html; charset=utf-8", bytes: PackageResources.index_html),
        "app.js": Asset(contentType: "text/javascript; charset=utf-8", bytes: PackageResources.app_js),
        "app.css": Asset(contentType: "text/css; charset=utf-8", bytes: PackageResources.app_css),
    ]
}

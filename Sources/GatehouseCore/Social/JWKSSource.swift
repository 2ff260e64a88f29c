import Foundation

/// Fetches a JWKS document over HTTPS. The core defines what it needs; the server implements it
/// with AsyncHTTPClient (and tests with a local fake issuer).
public protocol JWKSSource: Sendable {
    /// The document's bytes and the lifetime its `Cache-Control: max-age` gives (if any).
    func fetchJWKS(from url: String) async throws -> (body: [UInt8], maxAge: TimeInterval?)
}

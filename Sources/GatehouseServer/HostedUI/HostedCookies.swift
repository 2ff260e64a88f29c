import HTTPTypes
import Hummingbird

/// The hosted UI's cookies. All are `HttpOnly` and, but for Apple's, `SameSite=Lax` (a Lax cookie accompanies the
/// top-level GET that Google's redirect back is, and never a cross-site POST). On an https issuer they
/// are `Secure` and `__Host-` prefixed, so a neighbouring subdomain can neither read nor plant them;
/// on plain http (development on localhost) neither attribute can be used.
struct HostedCookies: Sendable {
    /// The names in use.
    enum Kind: String {
        /// The hosted session (single sign-on).
        case session = "gatehouse-session"
        /// The secret the pages' CSRF tokens are derived from.
        case form = "gatehouse-form"
        /// Binds a sign-in at Google to the browser that started it.
        case federation = "gatehouse-federation"
        /// Binds a Sign in with Apple to the browser that started it. Apple's answer is a cross-site
        /// `form_post`, which only a `SameSite=None` cookie accompanies; such a cookie must be `Secure`,
        /// so it works on an https issuer (and on http://localhost, which browsers treat as secure).
        case appleFederation = "gatehouse-apple-hosted"
    }

    let secure: Bool

    init(issuer: String) {
        secure = issuer.lowercased().hasPrefix("https://")
    }

    func name(_ kind: Kind) -> String { secure ? "__Host-" + kind.rawValue : kind.rawValue }

    private func attributes(_ kind: Kind) -> String {
        if kind == .appleFederation { return "Path=/; Secure; HttpOnly; SameSite=None" }
        return secure ? "Path=/; Secure; HttpOnly; SameSite=Lax" : "Path=/; HttpOnly; SameSite=Lax"
    }

    /// `Set-Cookie` for `value`, kept for `maxAge` seconds.
    func set(_ kind: Kind, _ value: String, maxAge: Int) -> HTTPField {
        HTTPField(name: .setCookie, value: "\(name(kind))=\(value); Max-Age=\(maxAge); \(attributes(kind))")
    }

    /// `Set-Cookie` that removes it.
    func clear(_ kind: Kind) -> HTTPField {
        HTTPField(name: .setCookie, value: "\(name(kind))=; Max-Age=0; \(attributes(kind))")
    }

    /// The value the browser sent, if any.
    func value(_ kind: Kind, in request: Request) -> String? {
        guard let value = request.cookies[name(kind)]?.value, !value.isEmpty else { return nil }
        return value
    }
}

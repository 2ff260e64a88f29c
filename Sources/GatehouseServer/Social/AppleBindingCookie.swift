import Hummingbird

/// The cookie that binds an Apple web sign-in to the browser that started it.
///
/// `/auth/apple/authorize` sets it on its redirect; `/auth/apple/callback` requires it and clears it.
/// `__Host-` makes the browser refuse it unless it is `Secure`, has `Path=/` and no `Domain`, so a
/// neighbouring subdomain cannot plant or overwrite it. `SameSite=None` because Apple's `form_post`
/// is a cross-site POST from appleid.apple.com, which a `Lax` cookie would not accompany. Being
/// `Secure`, it only works on an HTTPS issuer (or http://localhost, which browsers treat as secure).
enum AppleBindingCookie {
    static let name = "__Host-gatehouse-apple"
    static let attributes = "Path=/; Secure; HttpOnly; SameSite=None"

    /// `Set-Cookie` for a new flow, valid as long as its state.
    static func set(_ value: String, maxAge: Int) -> String {
        "\(name)=\(value); Max-Age=\(maxAge); \(attributes)"
    }

    /// `Set-Cookie` that removes it: same name and attributes, `Max-Age=0`.
    static let clear = "\(name)=; Max-Age=0; \(attributes)"

    /// The value the browser sent, if any.
    static func value(in request: Request) -> String? {
        request.cookies[name]?.value
    }
}

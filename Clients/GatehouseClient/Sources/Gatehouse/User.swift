import Foundation

/// The signed-in user as the ID token describes them, read without a network call (and without
/// verifying the signature: for display, never for access decisions, which your API makes on the token).
///
/// For the app's profile (linked identities, timestamps) call ``GatehouseClient/profile()``.
public struct User: Sendable, Equatable {
    /// The stable id, the token's `sub`; key your data on it.
    public var sub: String
    /// The address, when the account has one.
    public var email: String?
    /// Whether the address was proven.
    public var emailVerified: Bool
    /// The display name, when known.
    public var name: String?
    /// The phone number in E.164 (the `phone_number` claim), when the account has one.
    public var phone: String?
    /// Whether the number was proven with a texted code (`phone_number_verified`); `false` without a number.
    public var phoneVerified: Bool
    /// The issuer (`iss`), the Gatehouse server's public URL.
    public var issuer: String?
    /// The app client id the token was issued to (`aud`).
    public var audience: String?

    /// The user described by `idToken`'s claims.
    ///
    /// - Parameter idToken: A JWT whose payload has at least `sub`.
    /// - Returns: `nil` when the token is not a JWT or has no `sub`.
    public init?(idToken: String) {
        guard let claims = JWTClaims.decode(idToken), let sub = claims["sub"] as? String else { return nil }
        self.sub = sub
        self.email = claims["email"] as? String
        self.emailVerified = Self.flag(claims["email_verified"])
        self.name = claims["name"] as? String
        self.phone = claims["phone_number"] as? String
        self.phoneVerified = Self.flag(claims["phone_number_verified"])
        self.issuer = claims["iss"] as? String
        self.audience = (claims["aud"] as? String) ?? (claims["aud"] as? [String])?.first
    }

    /// A boolean claim, which some issuers write as the string `"true"`.
    private static func flag(_ claim: Any?) -> Bool {
        (claim as? Bool) ?? ((claim as? String) == "true")
    }
}

/// A JWT's payload, base64url-decoded (no signature check).
enum JWTClaims {
    static func decode(_ token: String) -> [String: Any]? {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var text = parts[1].replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        text += String(repeating: "=", count: (4 - text.count % 4) % 4)
        guard let data = Data(base64Encoded: text) else { return nil }
        return (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
    }
}

import Foundation

/// A new authenticator-app secret (``GatehouseClient/enrolAuthenticatorApp()``): show ``otpauthURI`` as a QR code and
/// ``secret`` for typing in, then confirm with the app's first code (``GatehouseClient/confirmAuthenticatorApp(code:)``).
/// Show them once and keep them nowhere: whoever has the secret can make the codes.
public struct AuthenticatorAppEnrolment: Codable, Sendable, Equatable {
    /// The secret in base32 (RFC 4648, no padding), as an authenticator app's "enter a setup key" field takes it.
    public var secret: String
    /// The `otpauth://totp/…?secret=…&issuer=…` URI, the usual content of the QR code.
    public var otpauthURI: String

    private enum CodingKeys: String, CodingKey {
        case secret
        // The client's decoder converts `otpauth_uri` from snake case to `otpauthUri`.
        case otpauthURI = "otpauthUri"
    }

    /// An enrolment from its parts (tests and previews).
    ///
    /// - Parameters:
    ///   - secret: The base32 secret.
    ///   - otpauthURI: The `otpauth://` URI.
    public init(secret: String, otpauthURI: String) {
        self.secret = secret
        self.otpauthURI = otpauthURI
    }

    /// ``otpauthURI`` as a URL, for a QR-code generator or `UIApplication.open` (which hands it to an installed app).
    public var url: URL? { URL(string: otpauthURI) }
}

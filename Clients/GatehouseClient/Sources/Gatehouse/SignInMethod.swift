import Foundation

/// How a session was made, as the client recorded it at sign-in (the tokens do not say) and kept through every
/// refresh: ``Session/signInMethod``. ``GatehouseClient/apply(_:)`` ends only ``apple`` sessions.
///
/// A struct with known values, not an enum, so a later SDK version can add methods without breaking a `switch`
/// (which needs a `default:`); `case .apple:` matches as usual.
public struct SignInMethod: RawRepresentable, Hashable, Sendable, Codable, CustomStringConvertible {
    /// The method's name as it is stored (`apple`).
    public let rawValue: String

    /// A method by its stored name.
    ///
    /// - Parameter rawValue: The name, e.g. `apple`.
    public init(rawValue: String) { self.rawValue = rawValue }

    /// Email and password (``GatehouseClient/signIn(email:password:)``).
    public static let password = SignInMethod(rawValue: "password")
    /// Sign in with Apple: natively (``GatehouseClient/signInWithApple(identityToken:authorizationCode:rawNonce:email:fullName:)``),
    /// in a browser (``GatehouseClient/redeemHandoff(code:codeVerifier:)``), or through the hosted UI straight to Apple.
    public static let apple = SignInMethod(rawValue: "apple")
    /// Google (``GatehouseClient/signInWithGoogle(idToken:rawNonce:fullName:)``, or the hosted UI straight to Google).
    public static let google = SignInMethod(rawValue: "google")
    /// A texted code (``GatehouseClient/signInWithPhone(_:code:)``).
    public static let phone = SignInMethod(rawValue: "phone")
    /// A passkey (``GatehouseClient/signInWithPasskey(_:)``, on Apple platforms through ``PasskeyAuthorization``).
    public static let passkey = SignInMethod(rawValue: "passkey")
    /// The hosted UI's own page, where the user may have chosen any of the server's methods.
    public static let hostedUI = SignInMethod(rawValue: "hosted_ui")

    /// The stored name.
    public var description: String { rawValue }
}

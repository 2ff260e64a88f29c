import Foundation
import GatehouseCore

/// Passkeys' settings (`GATEHOUSE_PASSKEY_*`) and the app association files they need.
public struct PasskeyConfiguration: Sendable, Equatable {
    /// An Android app allowed to use the passkeys: its package and signing certificate's SHA-256.
    public struct AndroidApp: Sendable, Equatable {
        /// The package name.
        public var package: String
        /// The certificate fingerprint, `AB:CD:…` (32 bytes).
        public var fingerprint: String

        /// The origin Android's Credential Manager puts in client data for this app:
        /// `android:apk-key-hash:<base64url of the certificate's SHA-256>`.
        public var origin: String {
            let bytes = fingerprint.split(separator: ":").compactMap { UInt8($0, radix: 16) }
            let base64 = Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_")
            return "android:apk-key-hash:" + base64.replacingOccurrences(of: "=", with: "")
        }
    }

    /// The relying party id (`GATEHOUSE_PASSKEY_RP_ID`); passkeys are off without it.
    public var rpID: String?
    /// Web origins accepted in client data (`GATEHOUSE_PASSKEY_ORIGINS`); default: the issuer's origin.
    public var origins: [String] = []
    /// `TEAMID.bundle.id` entries for `apple-app-site-association` (`GATEHOUSE_PASSKEY_APPLE_APP_IDS`).
    public var appleAppIDs: [String] = []
    /// Android apps for `assetlinks.json` (`GATEHOUSE_PASSKEY_ANDROID_APPS`, `package=AB:CD:…`).
    public var androidApps: [AndroidApp] = []

    /// Creates empty settings (passkeys off).
    public init() {}

    /// The core's settings: the RP id, the app name, and every accepted origin (the web ones, or the
    /// issuer's, plus each Android app's).
    /// - Parameters:
    ///   - issuer: The issuer URL.
    ///   - appName: The name authenticators show.
    /// - Returns: The settings, or `nil` when passkeys are off.
    public func settings(issuer: String, appName: String) -> PasskeySettings? {
        guard let rpID else { return nil }
        var accepted = Set(origins.isEmpty ? [Self.origin(of: issuer)] : origins)
        accepted.formUnion(androidApps.map(\.origin))
        return PasskeySettings(rpID: rpID, rpName: appName, origins: accepted)
    }

    static func origin(of url: String) -> String {
        guard let parsed = URL(string: url), let scheme = parsed.scheme, let host = parsed.host else { return url }
        return "\(scheme)://\(host)" + (parsed.port.map { ":\($0)" } ?? "")
    }
}

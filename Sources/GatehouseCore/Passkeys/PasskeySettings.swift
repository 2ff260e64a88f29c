import Foundation

/// Where passkeys belong: the relying party id (`GATEHOUSE_PASSKEY_RP_ID`, a registrable domain the
/// origins are on), the origins a ceremony may come from (`GATEHOUSE_PASSKEY_ORIGINS`: web origins
/// and Android's `android:apk-key-hash:…`), and how long a challenge lives.
public struct PasskeySettings: Sendable {
    /// The relying party id, e.g. `example.com`.
    public var rpID: String
    /// The name authenticators show (the app's name).
    public var rpName: String
    /// The accepted `origin` values of client data, compared exactly.
    public var origins: Set<String>
    /// Seconds a challenge is accepted: 5 minutes.
    public var challengeLifetime: TimeInterval = 300

    /// Creates the settings.
    /// - Parameters:
    ///   - rpID: The relying party id.
    ///   - rpName: The name authenticators show.
    ///   - origins: The accepted origins.
    public init(rpID: String, rpName: String, origins: Set<String>) {
        self.rpID = rpID
        self.rpName = rpName
        self.origins = origins
    }
}

import Foundation
import GatehouseCore

/// The custom-claims hook (`GATEHOUSE_CLAIMS_HOOK_*`, docs/claims-hook.md); off until
/// `GATEHOUSE_CLAIMS_HOOK_URL` is set.
public struct ClaimsHookConfiguration: Sendable, Equatable {
    /// Where the hook's requests are posted: https, or http on a loopback host.
    public var url: String
    /// The HMAC-SHA256 key the requests are signed with (the bytes of `whsec_<base64>`).
    public var secret: [UInt8]
    /// Timeout, failure mode and cache lifetime.
    public var settings: ClaimsHookSettings

    /// Creates the configuration.
    /// - Parameters:
    ///   - url: Where the requests are posted.
    ///   - secret: The signing key's bytes.
    ///   - settings: Timeout, failure mode and cache lifetime.
    public init(url: String, secret: [UInt8], settings: ClaimsHookSettings) {
        self.url = url
        self.secret = secret
        self.settings = settings
    }
}

import Foundation
import GatehouseCore

extension GatehouseConfiguration {
    /// Reads the custom-claims hook's settings (`GATEHOUSE_CLAIMS_HOOK_URL`, `_SECRET`, `_TIMEOUT_MS`,
    /// `_FAILURE`, `_CACHE_TTL`).
    /// - Parameter reader: The environment.
    /// - Throws: ``ConfigurationError`` naming the variable at fault.
    mutating func readClaimsHook(_ reader: EnvironmentReader) throws {
        let others = [
            "GATEHOUSE_CLAIMS_HOOK_SECRET", "GATEHOUSE_CLAIMS_HOOK_TIMEOUT_MS", "GATEHOUSE_CLAIMS_HOOK_FAILURE", "GATEHOUSE_CLAIMS_HOOK_CACHE_TTL",
        ]
        guard let url = try reader.url("GATEHOUSE_CLAIMS_HOOK_URL") else {
            if let set = others.first(where: { reader.string($0) != nil }) {
                throw ConfigurationError("\(set) is set but GATEHOUSE_CLAIMS_HOOK_URL is not.")
            }
            return
        }
        guard let parsed = URL(string: url), parsed.scheme?.lowercased() == "https" || Self.isLoopback(parsed.host ?? "") else {
            throw ConfigurationError("GATEHOUSE_CLAIMS_HOOK_URL must be https (http only on a loopback address), not '\(url)'.")
        }
        guard identityProvider == .embedded else {
            throw ConfigurationError("GATEHOUSE_CLAIMS_HOOK_URL needs the embedded pool; with Cognito, use Cognito's pre token generation trigger.")
        }
        guard let text = reader.string("GATEHOUSE_CLAIMS_HOOK_SECRET"), text.hasPrefix("whsec_"),
            let key = Data(base64Encoded: String(text.dropFirst(6))), key.count >= 16
        else {
            throw ConfigurationError("GATEHOUSE_CLAIMS_HOOK_SECRET must be whsec_ and the base64 of at least 16 random bytes.")
        }
        var settings = ClaimsHookSettings()
        if let ms = try reader.int("GATEHOUSE_CLAIMS_HOOK_TIMEOUT_MS", in: 50...10_000) { settings.timeout = .milliseconds(ms) }
        if let text = reader.string("GATEHOUSE_CLAIMS_HOOK_FAILURE") {
            guard let failure = ClaimsHookSettings.Failure(rawValue: text.lowercased()) else {
                throw ConfigurationError("GATEHOUSE_CLAIMS_HOOK_FAILURE must be 'deny' or 'allow', not '\(text)'.")
            }
            settings.failure = failure
        }
        settings.cacheTTL = try reader.seconds("GATEHOUSE_CLAIMS_HOOK_CACHE_TTL", in: 0...3600) ?? 0
        claimsHook = ClaimsHookConfiguration(url: url, secret: Array(key), settings: settings)
    }

    static func isLoopback(_ host: String) -> Bool {
        let host = host.lowercased().trimmingCharacters(in: CharacterSet(charactersIn: "[]"))
        return host == "localhost" || host == "::1" || host.hasPrefix("127.")
    }
}

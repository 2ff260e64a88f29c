import Foundation

extension GatehouseConfiguration {
    /// Reads passkeys' settings (`GATEHOUSE_PASSKEY_RP_ID`, `_ORIGINS`, `_APPLE_APP_IDS`, `_ANDROID_APPS`).
    /// - Parameter reader: The environment.
    /// - Throws: ``ConfigurationError`` naming the variable at fault.
    mutating func readPasskeys(_ reader: EnvironmentReader) throws {
        var p = PasskeyConfiguration()
        if let rpID = reader.string("GATEHOUSE_PASSKEY_RP_ID")?.lowercased() {
            let labels = rpID.split(separator: ".", omittingEmptySubsequences: false)
            guard !labels.isEmpty, labels.allSatisfy({ !$0.isEmpty && $0.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" } }) else {
                throw ConfigurationError("GATEHOUSE_PASSKEY_RP_ID must be a domain (example.com), not '\(rpID)'.")
            }
            p.rpID = rpID
        }
        p.origins = try reader.list("GATEHOUSE_PASSKEY_ORIGINS").map { origin in
            guard origin.hasPrefix("android:apk-key-hash:") || (try? Self.corsOrigin(origin)) == origin else {
                throw ConfigurationError(
                    "GATEHOUSE_PASSKEY_ORIGINS: '\(origin)' is not an origin (https://host[:port], or android:apk-key-hash:…)."
                )
            }
            return origin
        }
        p.appleAppIDs = try reader.list("GATEHOUSE_PASSKEY_APPLE_APP_IDS").map { id in
            let parts = id.split(separator: ".", maxSplits: 1)
            guard parts.count == 2, parts[0].count == 10, parts[0].allSatisfy({ $0.isUppercase || $0.isNumber }) else {
                throw ConfigurationError("GATEHOUSE_PASSKEY_APPLE_APP_IDS: '\(id)' is not TEAMID.bundle.id (a 10-character team id).")
            }
            return id
        }
        p.androidApps = try reader.list("GATEHOUSE_PASSKEY_ANDROID_APPS").map { entry in
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            let bytes = parts.count == 2 ? parts[1].split(separator: ":").compactMap { UInt8($0, radix: 16) } : []
            guard parts.count == 2, !parts[0].isEmpty, bytes.count == 32, parts[1].split(separator: ":").count == 32 else {
                throw ConfigurationError(
                    "GATEHOUSE_PASSKEY_ANDROID_APPS: '\(entry)' is not package=SHA-256 fingerprint (com.example.app=AB:CD:… with 32 bytes)."
                )
            }
            return PasskeyConfiguration.AndroidApp(package: parts[0], fingerprint: parts[1].uppercased())
        }
        if p.rpID != nil, identityProvider == .cognito {
            throw ConfigurationError("GATEHOUSE_PASSKEY_RP_ID needs the embedded pool; with Cognito, passkeys are Cognito's own.")
        }
        passkeys = p
    }
}

import GatehouseInfrastructure

/// Proof Key for Code Exchange (RFC 7636), S256 only: the checks the Apple hand-off and the
/// authorization server share.
enum PKCE {
    /// A 43-character base64url SHA-256.
    static func isChallenge(_ value: String) -> Bool {
        value.utf8.count == 43 && Base64URL.decode(value)?.count == 32
    }

    /// 43–128 characters of `[A-Za-z0-9-._~]`.
    static func isVerifier(_ value: String) -> Bool {
        (43...128).contains(value.utf8.count)
            && value.unicodeScalars.allSatisfy {
                $0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0) || "-._~".unicodeScalars.contains($0))
            }
    }

    /// Whether `verifier` is well-formed and hashes to `challenge` (compared in constant time).
    static func verifies(_ verifier: String, challenge: String) -> Bool {
        isVerifier(verifier) && ConstantTime.equals(Digests.sha256Base64URL(verifier), challenge)
    }
}

import Crypto
import Foundation

/// Standard Webhooks signing: secrets are `whsec_` and the base64 of 32 random bytes; a delivery's
/// `webhook-signature` is `v1,` and the base64 HMAC-SHA256, under the secret's bytes, of
/// `<webhook-id>.<webhook-timestamp>.<body>`.
public enum WebhookSignature {
    /// What every secret starts with.
    public static let secretPrefix = "whsec_"

    /// A new secret.
    /// - Parameter random: The entropy.
    /// - Returns: `whsec_<base64>`, shown to the operator once.
    public static func generateSecret(_ random: any RandomSource) -> String {
        secretPrefix + Data(random.bytes(32)).base64EncodedString()
    }

    /// The key bytes of a secret.
    /// - Parameter secret: `whsec_<base64>`.
    /// - Returns: The bytes, or `nil` when it is not a secret's shape.
    public static func key(of secret: String) -> [UInt8]? {
        guard secret.hasPrefix(secretPrefix), let bytes = Data(base64Encoded: String(secret.dropFirst(secretPrefix.count))),
            (16...64).contains(bytes.count)
        else { return nil }
        return Array(bytes)
    }

    /// The `webhook-signature` header of one attempt.
    /// - Parameters:
    ///   - id: The `webhook-id` (the same on every retry).
    ///   - timestamp: The attempt's `webhook-timestamp` (Unix seconds).
    ///   - body: The exact body sent.
    ///   - key: The secret's bytes.
    /// - Returns: `v1,<base64>`.
    public static func sign(id: String, timestamp: Int64, body: [UInt8], key: [UInt8]) -> String {
        var message = Array("\(id).\(timestamp).".utf8)
        message.append(contentsOf: body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return "v1," + Data(mac).base64EncodedString()
    }
}

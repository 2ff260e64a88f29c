import Crypto
import Foundation

/// The Standard Webhooks signature (standardwebhooks.com): `v1,` and the base64 of
/// HMAC-SHA256(`id.timestamp.body`) under the secret's bytes (`whsec_<base64>`).
struct StandardWebhookSignature {
    let key: [UInt8]

    /// The `webhook-signature` header's value for one message.
    /// - Parameters:
    ///   - id: The `webhook-id`.
    ///   - timestamp: The `webhook-timestamp` (Unix seconds).
    ///   - body: The exact body bytes sent.
    /// - Returns: `v1,<base64>`.
    func sign(id: String, timestamp: Int64, body: [UInt8]) -> String {
        var message = Array("\(id).\(timestamp).".utf8)
        message.append(contentsOf: body)
        let mac = HMAC<SHA256>.authenticationCode(for: message, using: SymmetricKey(data: key))
        return "v1," + Data(mac).base64EncodedString()
    }
}

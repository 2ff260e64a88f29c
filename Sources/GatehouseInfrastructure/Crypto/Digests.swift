import Crypto
import Foundation

/// SHA-256 helpers.
package enum Digests {
    package static func sha256Hex(_ string: String) -> String {
        SHA256.hash(data: Data(string.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    package static func sha256Base64URL(_ string: String) -> String {
        Base64URL.encode(Array(SHA256.hash(data: Data(string.utf8))))
    }
}

import Crypto
import Foundation
import _CryptoExtras

/// A credential public key in COSE form (RFC 9053), the three algorithms Gatehouse offers: ES256
/// (P-256), EdDSA (Ed25519) and RS256 (RSA PKCS#1 v1.5, at least 2048 bits).
enum COSEPublicKey: Sendable {
    case es256(P256.Signing.PublicKey)
    case ed25519(Curve25519.Signing.PublicKey)
    case rs256(_RSA.Signing.PublicKey)

    /// The COSE algorithm identifiers offered in `pubKeyCredParams`, in order of preference.
    static let offeredAlgorithms: [Int64] = [-7, -8, -257]

    struct Unsupported: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads a COSE_Key map; the key type, curve and algorithm must agree.
    init(cose: CBORValue) throws(Unsupported) {
        guard let kty = cose[int: 1]?.integer, let alg = cose[int: 3]?.integer else { throw Unsupported(description: "no kty or alg") }
        switch (kty, alg) {
        case (2, -7):
            guard cose[int: -1]?.integer == 1, let x = cose[int: -2]?.byteString, let y = cose[int: -3]?.byteString, x.count == 32, y.count == 32,
                let key = try? P256.Signing.PublicKey(x963Representation: [0x04] + x + y)
            else { throw Unsupported(description: "not a P-256 point") }
            self = .es256(key)
        case (1, -8):
            guard cose[int: -1]?.integer == 6, let x = cose[int: -2]?.byteString, x.count == 32,
                let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x)
            else { throw Unsupported(description: "not an Ed25519 key") }
            self = .ed25519(key)
        case (3, -257):
            guard let n = cose[int: -1]?.byteString, let e = cose[int: -2]?.byteString,
                let key = try? _RSA.Signing.PublicKey(n: n, e: e), key.keySizeInBits >= 2048
            else { throw Unsupported(description: "not an RSA key of at least 2048 bits") }
            self = .rs256(key)
        default:
            throw Unsupported(description: "key type \(kty) with algorithm \(alg) is not offered")
        }
    }

    /// The COSE algorithm identifier.
    var algorithm: Int64 {
        switch self {
        case .es256: -7
        case .ed25519: -8
        case .rs256: -257
        }
    }

    /// Whether `signature` (WebAuthn's form: DER for ECDSA, raw for EdDSA, PKCS#1 for RSA) signs `data`.
    func verifies(_ signature: [UInt8], over data: [UInt8]) -> Bool {
        switch self {
        case .es256(let key):
            guard let parsed = try? P256.Signing.ECDSASignature(derRepresentation: signature) else { return false }
            return key.isValidSignature(parsed, for: SHA256.hash(data: data))
        case .ed25519(let key):
            return key.isValidSignature(signature, for: data)
        case .rs256(let key):
            let parsed = _RSA.Signing.RSASignature(rawRepresentation: signature)
            return key.isValidSignature(parsed, for: SHA256.hash(data: data), padding: .insecurePKCS1v1_5)
        }
    }
}

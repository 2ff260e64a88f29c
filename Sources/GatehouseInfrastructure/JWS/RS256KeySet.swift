import Crypto
import Foundation
import _CryptoExtras

/// The public keys of one issuer, by `kid`, verifying RS256 only.
///
/// A token is accepted only when its header says `RS256` and names a `kid` of *this* set; there is
/// no default key and no fallback to another issuer's keys (jwt-kit's default-key fallback is the
/// trap this avoids). Kept with ``CompactJWS`` (Benchmarks/Microbench `jws-verify`).
package struct RS256KeySet: Sendable {
    package struct Key: Sendable {
        package let kid: String
        package let publicKey: _RSA.Signing.PublicKey

        package init(kid: String, publicKey: _RSA.Signing.PublicKey) {
            self.kid = kid
            self.publicKey = publicKey
        }
    }

    /// Why ``verify(_:)`` refused a token. The description is fixed text (plus a registered algorithm
    /// name): it goes into error causes and so into the log, where token header text must not.
    package enum Failure: Error, Sendable, Equatable, CustomStringConvertible {
        case algorithmNotAllowed(String)
        case missingKeyID
        case unknownKeyID
        case badSignature

        package var description: String {
            switch self {
            case .algorithmNotAllowed(let algorithm):
                "alg \(CompactJWS.loggable(algorithm: algorithm)) is not RS256"
            case .missingKeyID: "no kid"
            case .unknownKeyID: "kid not in the key set"
            case .badSignature: "bad signature"
            }
        }
    }

    /// A JWKS document that is not a JSON object with a `keys` array.
    package struct MalformedJWKS: Error, Sendable, CustomStringConvertible {
        package var description: String { "JWKS document has no 'keys' array" }
    }

    package let keys: [String: Key]

    package init(_ keys: [Key]) {
        var byID: [String: Key] = [:]
        for key in keys { byID[key.kid] = key }
        self.keys = byID
    }

    package var isEmpty: Bool { keys.isEmpty }

    package func contains(kid: String) -> Bool { keys[kid] != nil }

    /// Checks algorithm, key id and signature.
    package func verify(_ jws: CompactJWS) throws(Failure) {
        guard jws.algorithm == "RS256" else { throw .algorithmNotAllowed(jws.algorithm) }
        guard let kid = jws.keyID else { throw .missingKeyID }
        guard let key = keys[kid] else { throw .unknownKeyID }
        let signature = _RSA.Signing.RSASignature(rawRepresentation: jws.signature)
        let digest = SHA256.hash(data: jws.signingInput)
        guard key.publicKey.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5) else {
            throw .badSignature
        }
    }

    /// Reads a JWKS document (RFC 7517): RSA signing keys with a `kid`; a key that declares another
    /// algorithm or use is left out, as is anything that is not an RSA key of at least 2048 bits.
    package static func parseJWKS(_ data: some Collection<UInt8>) throws -> RS256KeySet {
        let value = try StrictJSONParser(maxDepth: 8).parse(data)
        guard case .object(let document) = value, case .array(let entries)? = document["keys"] else {
            throw MalformedJWKS()
        }
        var keys: [Key] = []
        for entry in entries {
            guard case .object(let jwk) = entry, jwk["kty"]?.stringValue == "RSA",
                let kid = jwk["kid"]?.stringValue,
                let n = jwk["n"]?.stringValue.flatMap({ Base64URL.decode($0) }),
                let e = jwk["e"]?.stringValue.flatMap({ Base64URL.decode($0) })
            else { continue }
            if let alg = jwk["alg"]?.stringValue, alg != "RS256" { continue }
            if let use = jwk["use"]?.stringValue, use != "sig" { continue }
            guard let publicKey = try? _RSA.Signing.PublicKey(n: n, e: e), publicKey.keySizeInBits >= 2048 else { continue }
            keys.append(Key(kid: kid, publicKey: publicKey))
        }
        return RS256KeySet(keys)
    }
}

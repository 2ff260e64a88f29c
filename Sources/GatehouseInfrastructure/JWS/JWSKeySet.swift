import Crypto
import Foundation
import _CryptoExtras

/// The public keys of one issuer, by `kid`, each pinned to one algorithm: RS256, or ES256 for our
/// own P-256 keys (`GATEHOUSE_TOKEN_ALG=ES256`; a set read from another issuer's JWKS holds RSA keys only).
///
/// A token is accepted only when it names a `kid` of *this* set and its header's `alg` is exactly that
/// key's algorithm: `none`, HS*, and an RSA key offered as an HMAC secret or an EC key's token relabelled
/// RS256 (key confusion) are refused. There is no default key and no fallback to another issuer's keys
/// (jwt-kit's default-key fallback is the trap this avoids). Kept with ``CompactJWS`` (Benchmarks/Microbench `jws-verify`).
package struct JWSKeySet: Sendable {
    package struct Key: Sendable {
        /// A public key and so the one algorithm it verifies.
        package enum Material: Sendable {
            case rsa(_RSA.Signing.PublicKey)
            case p256(P256.Signing.PublicKey)
        }

        package let kid: String
        package let material: Material

        /// An RSA key, verifying RS256 only.
        package init(kid: String, publicKey: _RSA.Signing.PublicKey) {
            self.kid = kid
            self.material = .rsa(publicKey)
        }

        /// A P-256 key, verifying ES256 only.
        package init(kid: String, p256: P256.Signing.PublicKey) {
            self.kid = kid
            self.material = .p256(p256)
        }

        /// The only `alg` a token under this key may carry.
        package var algorithm: String {
            switch material {
            case .rsa: "RS256"
            case .p256: "ES256"
            }
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
                "alg \(CompactJWS.loggable(algorithm: algorithm)) is not the key's"
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

    /// Checks algorithm, key id and signature: the header's `alg` must be the algorithm of the key its
    /// `kid` names (RS256 or ES256; anything else is refused before any key is looked up).
    package func verify(_ jws: CompactJWS) throws(Failure) {
        guard jws.algorithm == "RS256" || jws.algorithm == "ES256" else { throw .algorithmNotAllowed(jws.algorithm) }
        guard let kid = jws.keyID else { throw .missingKeyID }
        guard let key = keys[kid] else { throw .unknownKeyID }
        guard jws.algorithm == key.algorithm else { throw .algorithmNotAllowed(jws.algorithm) }
        let digest = SHA256.hash(data: jws.signingInput)
        switch key.material {
        case .rsa(let publicKey):
            let signature = _RSA.Signing.RSASignature(rawRepresentation: jws.signature)
            guard publicKey.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5) else { throw .badSignature }
        case .p256(let publicKey):
            // RFC 7518 §3.4: exactly r || s, 32 bytes each (a DER signature is refused).
            guard jws.signature.count == 64, let signature = try? P256.Signing.ECDSASignature(rawRepresentation: jws.signature),
                publicKey.isValidSignature(signature, for: digest)
            else { throw .badSignature }
        }
    }

    /// Reads a JWKS document (RFC 7517): RSA signing keys with a `kid`; a key that declares another
    /// algorithm or use is left out, as is anything that is not an RSA key of at least 2048 bits.
    /// With `acceptingES256` (our own JWKS, read back by tests and tools), P-256 keys declared ES256 too;
    /// other issuers' sets (Google, Apple, Cognito) are read RSA-only.
    package static func parseJWKS(_ data: some Collection<UInt8>, acceptingES256: Bool = false) throws -> JWSKeySet {
        let value = try StrictJSONParser(maxDepth: 8).parse(data)
        guard case .object(let document) = value, case .array(let entries)? = document["keys"] else {
            throw MalformedJWKS()
        }
        var keys: [Key] = []
        for entry in entries {
            if acceptingES256, let key = ecKey(entry) {
                keys.append(key)
                continue
            }
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
        return JWSKeySet(keys)
    }

    /// A JWK that is a P-256 signing key for ES256 with a `kid`, or `nil`.
    static func ecKey(_ entry: JSONValue) -> Key? {
        guard case .object(let jwk) = entry, jwk["kty"]?.stringValue == "EC", jwk["crv"]?.stringValue == "P-256",
            jwk["alg"]?.stringValue == "ES256", jwk["use"].map({ $0.stringValue == "sig" }) ?? true,
            let kid = jwk["kid"]?.stringValue,
            let x = jwk["x"]?.stringValue.flatMap({ Base64URL.decode($0) }), x.count == 32,
            let y = jwk["y"]?.stringValue.flatMap({ Base64URL.decode($0) }), y.count == 32,
            let publicKey = try? P256.Signing.PublicKey(rawRepresentation: x + y)
        else { return nil }
        return Key(kid: kid, p256: publicKey)
    }
}

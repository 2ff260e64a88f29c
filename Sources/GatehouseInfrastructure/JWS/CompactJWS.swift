import Foundation

/// A JWS in compact serialisation, parsed strictly (RFC 7515, RFC 8725):
/// three base64url segments, header and payload JSON objects without duplicate members, a size cap,
/// and no header that asks the verifier to fetch or trust anything (`jku`, `x5u`, `jwk`, `x5c`) or
/// to understand extensions (`crit`). Parsing checks form only; ``JWSKeySet`` checks the signature.
///
/// Kept over jwt-kit 5.8.0: parsing and verifying here runs at 0.81x a bare swift-crypto RS256 verify
/// (Benchmarks/Microbench `jws-verify`), where jwt-kit's measured 0.52x (its key collection is an
/// actor), and jwt-kit verifies a token with an
/// unknown `kid` against its default key, which ``JWSKeySet`` never does.
package struct CompactJWS: Sendable {
    package struct Malformed: Error, Sendable, CustomStringConvertible {
        package let reason: String
        package var description: String { "malformed JWT: \(reason)" }
    }

    package let header: [String: JSONValue]
    package let claims: [String: JSONValue]
    /// The bytes the signature covers: `base64url(header) "." base64url(payload)`.
    package let signingInput: [UInt8]
    package let signature: [UInt8]

    package static let maxLength = 16 * 1024
    static let forbiddenHeaders = ["jku", "x5u", "jwk", "x5c", "crit", "b64", "zip"]

    package init(parsing token: String) throws(Malformed) {
        let bytes = Array(token.utf8)
        guard bytes.count <= Self.maxLength else { throw Malformed(reason: "too long") }
        var dots: [Int] = []
        for (index, byte) in bytes.enumerated() where byte == UInt8(ascii: ".") {
            dots.append(index)
            if dots.count > 2 { throw Malformed(reason: "more than three segments") }
        }
        guard dots.count == 2 else { throw Malformed(reason: "not three segments") }
        let headerPart = bytes[0..<dots[0]]
        let payloadPart = bytes[(dots[0] + 1)..<dots[1]]
        let signaturePart = bytes[(dots[1] + 1)...]
        guard !headerPart.isEmpty, !payloadPart.isEmpty, !signaturePart.isEmpty else {
            throw Malformed(reason: "empty segment")
        }
        guard let headerBytes = Base64URL.decode(bytes: headerPart),
            let payloadBytes = Base64URL.decode(bytes: payloadPart),
            let signature = Base64URL.decode(bytes: signaturePart)
        else { throw Malformed(reason: "segment is not base64url") }
        let parser = StrictJSONParser(maxDepth: 8)
        guard let headerValue = try? parser.parse(headerBytes), case .object(let header) = headerValue else {
            throw Malformed(reason: "header is not a JSON object")
        }
        guard let payloadValue = try? parser.parse(payloadBytes), case .object(let claims) = payloadValue else {
            throw Malformed(reason: "payload is not a JSON object")
        }
        for name in Self.forbiddenHeaders where header[name] != nil {
            throw Malformed(reason: "header '\(name)' is not accepted")
        }
        guard header["alg"]?.stringValue != nil else { throw Malformed(reason: "header has no 'alg'") }
        self.header = header
        self.claims = claims
        self.signingInput = Array(bytes[0..<dots[1]])
        self.signature = signature
    }

    package var algorithm: String { header["alg"]?.stringValue ?? "" }
    package var keyID: String? { header["kid"]?.stringValue }

    /// The registered JWS algorithm names (RFC 7518, RFC 8037): the only `alg` values worth naming in a log.
    static let registeredAlgorithms: Set<String> = [
        "none", "HS256", "HS384", "HS512", "RS256", "RS384", "RS512", "ES256", "ES384", "ES512", "ES256K", "PS256", "PS384", "PS512", "EdDSA",
    ]

    /// The header's `alg` as an error cause may carry it: a registered algorithm name, or only the
    /// length of anything else. The header is the sender's choice; its text never reaches a log.
    package var algorithmForLog: String { Self.loggable(algorithm: algorithm) }

    /// `algorithm` if it is a registered name, else only its length.
    package static func loggable(algorithm: String) -> String {
        registeredAlgorithms.contains(algorithm) ? algorithm : "unregistered (\(algorithm.utf8.count) bytes)"
    }

    /// Serialises a header and claims and signs them with `sign`, which receives the signing input.
    package static func encode(header: JSONValue, claims: JSONValue, sign: ([UInt8]) throws -> [UInt8]) rethrows -> String {
        let input = Base64URL.encode(header.serialized()) + "." + Base64URL.encode(claims.serialized())
        let signature = try sign(Array(input.utf8))
        return input + "." + Base64URL.encode(signature)
    }
}

import Crypto
import Foundation
import GatehouseInfrastructure
import GatehouseTesting
import Testing

@testable import GatehouseCore

/// P-256 signing keys (`GATEHOUSE_TOKEN_ALG=ES256`): signing, the JWK, and a key set that pins each
/// key to its algorithm.
@Suite("Tokens: ES256 keys")
struct ES256SigningKeyTests {
    let now = Date(timeIntervalSince1970: 1_700_000_000)

    func keyring(_ keys: [SigningKey]) throws -> Keyring { Keyring(try Keyring.makeSnapshot(keys: keys, now: now)) }

    @Test func signsVerifiesAndRoundTripsThroughDER() throws {
        let key = try SigningKey.generate(use: .accessToken, kid: "access-es", now: now, algorithm: .es256)
        #expect(key.algorithm == .es256 && key.rsaPublicKey == nil)
        let token = try TokenService.sign(Array(#"{"sub":"a"}"#.utf8), with: key)
        let jws = try CompactJWS(parsing: token)
        #expect(jws.algorithm == "ES256" && jws.keyID == "access-es" && jws.signature.count == 64)
        try JWSKeySet([key.verificationKey]).verify(jws)
        let loaded = try SigningKey.load(
            der: key.derRepresentation,
            algorithm: .es256,
            kid: key.kid,
            use: key.use,
            createdAt: now,
            retiredAt: nil,
            expiresAt: nil
        )
        try JWSKeySet([loaded.verificationKey]).verify(try CompactJWS(parsing: try TokenService.sign(Array("{}".utf8), with: loaded)))
        #expect(throws: (any Error).self) {
            _ = try SigningKey.load(
                der: key.derRepresentation,
                algorithm: .rs256,
                kid: "x",
                use: .idToken,
                createdAt: now,
                retiredAt: nil,
                expiresAt: nil
            )
        }
    }

    @Test func theJWKSPublishesBothKindsAndParsesBackOnlyWhenAsked() throws {
        let ec = try SigningKey.generate(use: .accessToken, kid: "access-es", now: now.addingTimeInterval(1), algorithm: .es256)
        let ring = try keyring([FixedKeys.idKey, FixedKeys.accessKey, ec])
        let document = try StrictJSONParser().parse(ring.snapshot.jwks)
        let entries = document.objectValue?["keys"]?.arrayValue?.compactMap(\.objectValue) ?? []
        let jwk = try #require(entries.first { $0["kid"] == "access-es" })
        #expect(jwk["kty"] == "EC" && jwk["crv"] == "P-256" && jwk["alg"] == "ES256" && jwk["use"] == "sig" && jwk["d"] == nil)
        #expect(ring.snapshot.accessSigner.kid == "access-es", "the newest unretired key signs")
        let ours = try JWSKeySet.parseJWKS(ring.snapshot.jwks, acceptingES256: true)
        #expect(ours.contains(kid: "access-es") && ours.contains(kid: "test-access-1"))
        let token = try TokenService.sign(Array("{}".utf8), with: ec)
        try ours.verify(try CompactJWS(parsing: token))
        #expect(!(try JWSKeySet.parseJWKS(ring.snapshot.jwks)).contains(kid: "access-es"), "another issuer's set is read RSA-only")
    }

    @Test func eachKeyVerifiesOnlyItsOwnAlgorithm() throws {
        let ec = try SigningKey.generate(use: .accessToken, kid: "ec", now: now, algorithm: .es256)
        let keys = JWSKeySet([ec.verificationKey, FixedKeys.accessKey.verificationKey])
        let ecToken = try TokenService.sign(Array("{}".utf8), with: ec)
        let rsaToken = try TokenService.sign(Array("{}".utf8), with: FixedKeys.accessKey)
        let parts = { (token: String) in token.split(separator: ".").map(String.init) }
        func header(_ alg: String, _ kid: String) -> String { Base64URL.encode(Array(#"{"alg":"\#(alg)","kid":"\#(kid)"}"#.utf8)) }
        func refused(_ token: String) -> JWSKeySet.Failure? {
            do {
                try keys.verify(try CompactJWS(parsing: token))
                return nil
            } catch let failure as JWSKeySet.Failure {
                return failure
            } catch {
                return .badSignature
            }
        }
        // An ES256 signature presented as RS256 under the EC key, and an RSA signature as ES256 under the RSA key.
        #expect(refused(header("RS256", "ec") + "." + parts(ecToken)[1] + "." + parts(ecToken)[2]) == .algorithmNotAllowed("RS256"))
        #expect(refused(header("ES256", "test-access-1") + "." + parts(rsaToken)[1] + "." + parts(rsaToken)[2]) == .algorithmNotAllowed("ES256"))
        for alg in ["none", "HS256", "ES384", "PS256"] {
            #expect(refused(header(alg, "ec") + "." + parts(ecToken)[1] + "." + parts(ecToken)[2]) == .algorithmNotAllowed(alg))
        }
        // A correct signature over another input, and the right bytes with one flipped.
        var flipped = Base64URL.decode(parts(ecToken)[2])!
        flipped[10] ^= 1
        #expect(refused(parts(ecToken)[0] + "." + parts(ecToken)[1] + "." + Base64URL.encode(flipped)) == .badSignature)
        #expect(refused(parts(ecToken)[0] + "." + Base64URL.encode(Array(#"{"a":1}"#.utf8)) + "." + parts(ecToken)[2]) == .badSignature)
        #expect(refused(parts(ecToken)[0] + "." + parts(ecToken)[1] + "." + Base64URL.encode(Array(repeating: 1, count: 65))) == .badSignature)
        #expect(refused(ecToken) == nil && refused(rsaToken) == nil)
    }
}

import Crypto
import Foundation
import GatehouseInfrastructure
import Testing

@testable import GatehouseCore

/// The parsers a passkey's bytes go through, on hostile input: CBOR, authenticator data, COSE keys.
@Suite("Passkeys: CBOR, authenticator data and COSE keys on hostile input")
struct PasskeyParsingTests {
    @Test func cborRoundTripsAndRefusesWhatWebAuthnNeverSends() throws {
        let map: CBORValue = .map([(.unsigned(1), .unsigned(2)), (.negative(-1), .bytes([1, 2, 3])), (.text("fmt"), .text("none"))])
        let encoded = CBOREncoder.encode(map)
        #expect(try CBORDecoder.decodeOne(encoded) == map)
        #expect(map[int: -1]?.byteString == [1, 2, 3] && map[text: "fmt"]?.textString == "none")
        for (bytes, what) in [
            ([0x5F] as [UInt8], "indefinite-length byte string"), ([0x9F, 0xFF], "indefinite array"),
            ([0x5A, 0xFF, 0xFF, 0xFF, 0xFF], "length past the end"),
            ([0xA2, 0x01, 0x02, 0x01, 0x03], "duplicate map key"), ([0x63, 0xFF, 0xFE, 0xFD], "text that is not UTF-8"), ([0xFB], "a float"),
            ([0x01, 0x02], "bytes after the item"), ([], "nothing"),
        ] {
            #expect(throws: CBORDecoder.Malformed.self, "\(what)") { try CBORDecoder.decodeOne(bytes) }
        }
        let deep = [UInt8](repeating: 0x81, count: 40) + [0x00]
        #expect(throws: CBORDecoder.Malformed.self, "nesting") { try CBORDecoder.decodeOne(deep) }
    }

    @Test func authenticatorDataIsReadExactly() throws {
        let rpHash = Array(SHA256.hash(data: Data("example.com".utf8)))
        let key = P256.Signing.PrivateKey().publicKey.x963Representation
        let cose = CBOREncoder.encode(
            .map([
                (.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(-7)), (.negative(-1), .unsigned(1)),
                (.negative(-2), .bytes(Array(key[1..<33]))), (.negative(-3), .bytes(Array(key[33...]))),
            ])
        )
        let credential = [UInt8](repeating: 7, count: 32)
        let attested = rpHash + [0x45, 0, 0, 0, 9] + [UInt8](repeating: 0, count: 16) + [0, 32] + credential + cose
        let data = try AuthenticatorData(attested)
        #expect(data.userPresent && data.userVerified && data.signCount == 9 && data.attestedCredential?.credentialID == credential)
        let publicKey = try #require(data.attestedCredential?.publicKey)
        #expect(try COSEPublicKey(cose: publicKey).algorithm == -7)
        #expect(throws: AuthenticatorData.Malformed.self) { try AuthenticatorData(attested + [0]) }  // trailing bytes
        #expect(throws: AuthenticatorData.Malformed.self) { try AuthenticatorData(Array(attested.dropLast(3))) }  // truncated key
        #expect(throws: AuthenticatorData.Malformed.self) { try AuthenticatorData(Array(attested.prefix(36))) }
        var backedUpOnly = attested
        backedUpOnly[32] = 0x55  // backed up without backup eligible
        #expect(throws: AuthenticatorData.Malformed.self) { try AuthenticatorData(backedUpOnly) }
    }

    @Test func coseKeysMustAgreeWithTheirAlgorithm() throws {
        let wrongCurve: CBORValue = .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(-7)), (.negative(-1), .unsigned(2))])
        #expect(throws: COSEPublicKey.Unsupported.self) { try COSEPublicKey(cose: wrongCurve) }
        let mismatched: CBORValue = .map([(.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-7))])
        #expect(throws: COSEPublicKey.Unsupported.self) { try COSEPublicKey(cose: mismatched) }
        let notOffered: CBORValue = .map([(.unsigned(1), .unsigned(2)), (.unsigned(3), .negative(-35))])
        #expect(throws: COSEPublicKey.Unsupported.self) { try COSEPublicKey(cose: notOffered) }
        let signer = Curve25519.Signing.PrivateKey()
        let eddsa = try COSEPublicKey(
            cose: .map([
                (.unsigned(1), .unsigned(1)), (.unsigned(3), .negative(-8)), (.negative(-1), .unsigned(6)),
                (.negative(-2), .bytes(Array(signer.publicKey.rawRepresentation))),
            ])
        )
        let message: [UInt8] = Array("signed".utf8)
        #expect(eddsa.verifies(Array(try signer.signature(for: message)), over: message))
        #expect(!eddsa.verifies(Array(try signer.signature(for: message)), over: message + [0]))
    }

    @Test func aChallengeIsBoundToItsCeremonyAndExpires() throws {
        let box = SecretBox()
        try box.load(masterKey: [UInt8](repeating: 3, count: 32))
        let now = Date(epochSeconds: 1_800_000_000)
        let sealed = try PasskeyChallenge(purpose: .registration, userID: "u1", expiresAt: now.addingTimeInterval(300), nonce: "n").seal(with: box)
        let sealedBytes = try #require(Base64URL.decode(sealed))
        let opened = try #require(PasskeyChallenge.open(sealedBytes, with: box))
        #expect(opened.purpose == .registration && opened.userID == "u1" && opened.expiresAt == now.addingTimeInterval(300))
        var altered = sealedBytes
        altered[altered.count / 2] ^= 1
        #expect(PasskeyChallenge.open(altered, with: box) == nil)
        #expect(PasskeyChallenge.open([UInt8](repeating: 0, count: 16), with: box) == nil)
    }
}

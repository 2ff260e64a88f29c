import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Testing

/// Cases fixed by pycognito 2024.5.1 (its own client code, `Tests/cognito/srp-vectors.json`, made by
/// srp-lab `scripts/make_vectors.py`), so these tests need no Python.
struct CognitoSRPVectors: Decodable {
    struct Case: Decodable {
        let name, note, poolId, poolName, userIDForSRP, password, saltHex, xHex, verifierHex, privateBHex, srpBHex: String
        let privateAHex, srpAHex, uPaddedHex, sPaddedHex, keyHex, secretBlock, timestamp, signature, wrongPasswordSignature: String
    }
    struct Stamp: Decodable {
        let unix: Int
        let formatted: String
    }
    struct Pad: Decodable {
        let hex, padded: String
    }
    let N, kHex: String
    let cases: [Case]
    let timestamps: [Stamp]
    let pad: [Pad]

    static func load() throws -> CognitoSRPVectors {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("cognito/srp-vectors.json")
        return try JSONDecoder().decode(CognitoSRPVectors.self, from: Data(contentsOf: url))
    }
}

/// Always on Linux (CI runs on Debian, where libcrypto.so.3 is always there, so a failure to load it
/// fails the suite); elsewhere only when it loaded.
private let cognitoSRPRuns: Bool = {
    #if os(Linux)
    true
    #else
    CognitoSRP.system != nil
    #endif
}()

@Suite("Cognito SRP against pycognito", .enabled(if: cognitoSRPRuns))
struct CognitoSRPTests {
    let vectors: CognitoSRPVectors
    let srp: CognitoSRP

    init() throws {
        vectors = try CognitoSRPVectors.load()
        srp = try #require(CognitoSRP.system, "libcrypto.so.3 was not loaded")
    }

    func bytes(_ hex: String) throws -> [UInt8] {
        try #require(CognitoSRPHex.magnitude(fromHex: hex))
    }

    @Test func groupConstantsAreCognitos() throws {
        #expect(CognitoSRP.prime.count == 384)
        #expect(CognitoSRPHex.hex(CognitoSRP.prime) == vectors.N)
        #expect(CognitoSRPHex.minimalHex(CognitoSRP.multiplier) == vectors.kHex)
        // N is prime, so 2^(N-1) = 1 mod N: a check of the backend as much as of the constant.
        var exponent = CognitoSRP.prime
        exponent[exponent.count - 1] -= 1
        #expect(SystemBigNum.shared?.modExp([2], exponent, modulus: CognitoSRP.prime, secretExponent: false) == [1])
        #expect(SystemBigNum.shared?.modExp([2], exponent, modulus: CognitoSRP.prime, secretExponent: true) == [1])
    }

    @Test func paddingIsSignedMagnitude() throws {
        for entry in vectors.pad {
            #expect(CognitoSRPHex.paddedHex(try #require(CognitoSRPHex.magnitude(fromHex: entry.hex))) == entry.padded, "\(entry.hex)")
        }
        #expect(CognitoSRPHex.minimalHex([0, 0, 0x0a, 0xbc]) == "abc")
        #expect(CognitoSRPHex.minimalHex([]) == "0")
        #expect(CognitoSRPHex.magnitude(fromHex: "") == nil)
        #expect(CognitoSRPHex.magnitude(fromHex: "12g4") == nil)
        #expect(CognitoSRPHex.magnitude(fromHex: "00AbC") == [0x0a, 0xbc])
    }

    @Test func everyCaseMatchesPycognito() throws {
        for c in vectors.cases {
            let salt = try bytes(c.saltHex)
            // The SALT the server sends must read the same to pycognito (verbatim) and Amplify (as a number).
            #expect(CognitoSRPHex.paddedHex(salt) == c.saltHex, "\(c.name)")
            let verifier = try srp.verifier(poolName: c.poolName, userIDForSRP: c.userIDForSRP, password: c.password, salt: salt)
            #expect(CognitoSRPHex.minimalHex(verifier) == c.verifierHex, "\(c.name): verifier")
            #expect(CognitoSRP.poolName(poolID: c.poolId) == c.poolName)

            let privateB = try bytes(c.privateBHex)
            let publicB = try srp.publicB(verifier: verifier, privateB: privateB)
            #expect(CognitoSRPHex.minimalHex(publicB) == c.srpBHex, "\(c.name): B")

            let key = try srp.passwordClaimKey(publicAHex: c.srpAHex, publicB: publicB, verifier: verifier, privateB: privateB)
            #expect(CognitoSRPHex.hex(key) == c.keyHex, "\(c.name): key")

            let secretBlock = Array(try #require(Data(base64Encoded: c.secretBlock)))
            let expected = CognitoSRP.signature(
                key: key,
                poolName: c.poolName,
                userIDForSRP: c.userIDForSRP,
                secretBlock: secretBlock,
                timestamp: c.timestamp
            )
            #expect(Data(expected).base64EncodedString() == c.signature, "\(c.name): signature")

            func verify(_ signature: String, timestamp: String? = nil, user: String? = nil) -> Bool {
                srp.verifyPasswordClaim(
                    publicAHex: c.srpAHex,
                    publicB: publicB,
                    verifier: verifier,
                    privateB: privateB,
                    poolName: c.poolName,
                    userIDForSRP: user ?? c.userIDForSRP,
                    secretBlock: secretBlock,
                    timestamp: timestamp ?? c.timestamp,
                    signatureBase64: signature
                )
            }
            #expect(verify(c.signature), "\(c.name): right password")
            #expect(!verify(c.wrongPasswordSignature), "\(c.name): wrong password")
            #expect(!verify(c.signature, timestamp: c.timestamp + " "), "\(c.name): the timestamp is signed")
            #expect(!verify(c.signature, user: c.userIDForSRP + "x"), "\(c.name): the user is signed")
            #expect(!verify("not base64"))
        }
    }

    @Test func hostileClientValuesAreRefused() throws {
        let c = try #require(vectors.cases.first)
        let verifier = try bytes(c.verifierHex)
        let privateB = try bytes(c.privateBHex)
        let publicB = try bytes(c.srpBHex)
        let nHex = CognitoSRPHex.hex(CognitoSRP.prime)
        // A = 0, A = N, A = 2N (longer than N), not hex, absurdly long.
        for a in ["0", "000", nHex, "1" + String(repeating: "0", count: nHex.count), "zz", String(repeating: "1", count: 5000)] {
            #expect(throws: CognitoSRP.Failure.invalidPublicA) {
                try srp.passwordClaimKey(publicAHex: a, publicB: publicB, verifier: verifier, privateB: privateB)
            }
            #expect(
                !srp.verifyPasswordClaim(
                    publicAHex: a,
                    publicB: publicB,
                    verifier: verifier,
                    privateB: privateB,
                    poolName: c.poolName,
                    userIDForSRP: c.userIDForSRP,
                    secretBlock: [],
                    timestamp: c.timestamp,
                    signatureBase64: c.signature
                )
            )
        }
        #expect(throws: CognitoSRP.Failure.invalidInput) { try srp.publicB(verifier: [], privateB: privateB) }
        #expect(throws: CognitoSRP.Failure.invalidInput) { try srp.publicB(verifier: CognitoSRP.prime, privateB: privateB) }
        #expect(throws: CognitoSRP.Failure.invalidInput) {
            try srp.verifier(poolName: "p", userIDForSRP: "u", password: "pw", salt: [0, 0])
        }
    }

    @Test func freshValuesRoundTrip() throws {
        var generator = SystemRandomNumberGenerator()
        let random: (Int) -> [UInt8] = { count in (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) } }
        let salt = CognitoSRP.makeSalt(randomBytes: random)
        #expect(CognitoSRPHex.padded(salt) == salt)
        let b = CognitoSRP.makePrivateB(randomBytes: random)
        #expect(b.count == 32)
        let verifier = try srp.verifier(poolName: "Pool", userIDForSRP: "u", password: "pw", salt: salt)
        #expect(try srp.publicB(verifier: verifier, privateB: b).count <= 384)
        #expect(CognitoSRP.poolName(poolID: "us-east-1") == nil)
        #expect(CognitoSRP.poolName(poolID: "us-east-1_") == nil)
    }

    @Test func timestampsReadAndWriteAsClientsDo() throws {
        for stamp in vectors.timestamps {
            let date = Date(timeIntervalSince1970: TimeInterval(stamp.unix))
            #expect(CognitoSRPTimestamp.format(date) == stamp.formatted)
            #expect(CognitoSRPTimestamp.parse(stamp.formatted) == date, "\(stamp.formatted)")
        }
        #expect(CognitoSRPTimestamp.format(Date(timeIntervalSince1970: 1_793_693_109.9)) == "Tue Nov 3 08:05:09 UTC 2026")
        #expect(CognitoSRPTimestamp.parse("Tue Nov 03 08:05:09 UTC 2026") == Date(timeIntervalSince1970: 1_793_693_109))
        for bad in [
            "Tue Nov 3 08:05:09 GMT 2026", "Tue Nov 3 8:05:09 UTC 2026", "Tue Nov  3 08:05:09 UTC 2026", "Tue Feb 30 08:05:09 UTC 2026",
            "Tue Nov 3 24:00:00 UTC 2026", "Tue Nov 3 08:05:09 UTC 26", "Dienstag Nov 3 08:05:09 UTC 2026", "", "Tue nov 3 08:05:09 UTC 2026",
        ] {
            #expect(CognitoSRPTimestamp.parse(bad) == nil, "\(bad)")
        }
        let now = Date(timeIntervalSince1970: 1_793_693_109)
        #expect(CognitoSRPTimestamp.isFresh("Tue Nov 3 08:10:09 UTC 2026", now: now))
        #expect(!CognitoSRPTimestamp.isFresh("Tue Nov 3 08:10:10 UTC 2026", now: now))
        #expect(CognitoSRPTimestamp.isFresh("Tue Nov 3 08:00:09 UTC 2026", now: now))
        #expect(!CognitoSRPTimestamp.isFresh("Tue Nov 3 08:00:08 UTC 2026", now: now))
        #expect(!CognitoSRPTimestamp.isFresh("garbage", now: now))
    }

    @Test func libcryptoArithmeticEdges() throws {
        let bn = try #require(SystemBigNum.shared)
        #expect(bn.mod([0, 0, 7], modulus: [7]) == [])
        #expect(bn.modMul([0, 2], [3], modulus: [0, 0, 0x0b]) == [6])
        #expect(bn.modAdd([0xff], [1], modulus: [0x01, 0x00, 0x01]) == [0x01, 0x00])
        #expect(bn.modExp([5], [], modulus: [7], secretExponent: true) == [1])
        #expect(bn.modExp([5], [3], modulus: [], secretExponent: false) == nil, "zero modulus")
        #expect(bn.modExp([5], [3], modulus: [8], secretExponent: true) == nil, "constant time needs an odd modulus")
        #expect(bn.mod(Array(repeating: 1, count: SystemBigNum.maxOperandBytes + 1), modulus: [7]) == nil)
    }
}

import Crypto
import Foundation
import GatehouseInfrastructure
import Testing
import _CryptoExtras

@testable import GatehouseCore

@Suite("RS256 through the system OpenSSL")
struct SystemOpenSSLTests {
    @Test func reusedContextsSignExactlyAsSwiftCryptoDoes() async throws {
        let privateKey = try _RSA.Signing.PrivateKey(keySize: .bits2048)
        let key = SigningKey(kid: "t", use: .accessToken, privateKey: privateKey, createdAt: Date())
        #if os(Linux)
        // CI runs on Debian, where libcrypto.so.3 is always there: the fast path must be taken.
        let signer = try #require(key.openSSL, "libcrypto.so.3 was not loaded")
        #else
        guard let signer = key.openSSL else { return }
        #endif
        // PKCS #1 v1.5 is deterministic: every signature, from a fresh or a reused context, on any
        // thread, must equal BoringSSL's for the same digest.
        let digests = (0..<64).map { SHA256.hash(data: Array("message \($0)".utf8)) }
        let mismatches = await withTaskGroup(of: Int.self) { group in
            for worker in 0..<4 {
                group.addTask {
                    var bad = 0
                    for round in 0..<16 {
                        let digest = digests[(worker * 16 + round * 5) % digests.count]
                        let expected = try? privateKey.signature(for: digest, padding: .insecurePKCS1v1_5).rawRepresentation
                        if signer.sign(digest: Array(digest)).map({ Data($0) }) != expected { bad += 1 }
                    }
                    return bad
                }
            }
            return await group.reduce(0, +)
        }
        #expect(mismatches == 0)
        #expect((1...RS256OpenSSLSigner.maxIdle).contains(signer.idleContexts), "contexts are kept for reuse")
    }

    @Test func signaturesVerifyWithThePublicKey() throws {
        let key = try SigningKey.generate(use: .idToken, kid: "k", now: Date())
        let publicKey = try #require(key.rsaPublicKey)
        let input = Array("header.claims".utf8)
        for _ in 0..<3 {
            let signature = try key.sign(input)
            #expect(
                publicKey.isValidSignature(
                    _RSA.Signing.RSASignature(rawRepresentation: signature),
                    for: SHA256.hash(data: input),
                    padding: .insecurePKCS1v1_5
                )
            )
        }
    }
}

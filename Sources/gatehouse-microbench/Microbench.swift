import Crypto
import Foundation
import GatehouseCore
import _CryptoExtras

/// Microbenchmarks of the primitives behind the hot endpoints, in this process, on this machine:
/// RSA-2048 signing and verification (swift-crypto), our JWS verification, and scrypt.
/// `swift run -c release gatehouse-microbench`
@main
struct Microbench {
    static func rate(_ label: String, seconds: Double = 2, threads: Int = 1, _ body: @escaping @Sendable () throws -> Void) rethrows {
        let counts = Mutex([Int](repeating: 0, count: threads))
        let start = Date()
        DispatchQueue.concurrentPerform(iterations: threads) { index in
            var n = 0
            while Date().timeIntervalSince(start) < seconds {
                try? body()
                n += 1
            }
            counts.withLock { $0[index] = n }
        }
        let total = Double(counts.withLock { $0.reduce(0, +) }) / Date().timeIntervalSince(start)
        print(String(format: "%-44@ %10.0f /s  (%d thread%@)", label as NSString, total, threads, threads == 1 ? "" : "s"))
        FileHandle.standardOutput.synchronizeFile()
    }

    static func main() async throws {
        let key = try SigningKey.generate(use: .accessToken, kid: "bench", now: Date())
        let input = Array(String(repeating: "x", count: 700).utf8)
        let digest = SHA256.hash(data: input)
        try rate("RSA-2048 sign (swift-crypto, digest)") { _ = try key.privateKey.signature(for: digest, padding: .insecurePKCS1v1_5) }
        try rate("RSA-2048 sign (swift-crypto, digest)", threads: 2) { _ = try key.privateKey.signature(for: digest, padding: .insecurePKCS1v1_5) }
        try rate("RSA-2048 sign (SigningKey, \(key.signerName))") { _ = try key.sign(input) }
        try rate("RSA-2048 sign (SigningKey, \(key.signerName))", threads: 2) { _ = try key.sign(input) }
        let signature = try key.privateKey.signature(for: digest, padding: .insecurePKCS1v1_5)
        let publicKey = key.publicKey
        try rate("RSA-2048 verify (swift-crypto)") { _ = publicKey.isValidSignature(signature, for: digest, padding: .insecurePKCS1v1_5) }
        let keys = RS256KeySet([.init(kid: "bench", publicKey: publicKey)])
        let token = try CompactJWS.encode(header: ["alg": "RS256", "kid": "bench"], claims: ["sub": "x", "exp": 9_999_999_999]) { try! key.sign($0) }
        try rate("JWS parse + RS256 verify (GatehouseCore)") { try keys.verify(try CompactJWS(parsing: token)) }
        let pool = BlockingWorkPool(label: "bench", width: 1)
        let hasher = ScryptPasswordHasher(parameters: .owasp, pool: pool)
        let started = Date()
        for _ in 0..<3 { _ = try await hasher.hash("correct horse 9") }
        print(String(format: "%-44@ %10.0f ms per hash", "scrypt N=2^17 r=8 p=1" as NSString, Date().timeIntervalSince(started) / 3 * 1000))
    }
}

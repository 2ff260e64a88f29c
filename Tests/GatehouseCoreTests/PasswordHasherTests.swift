import Foundation
import Testing

@testable import GatehouseCore

@Suite("scrypt password hashing")
struct PasswordHasherTests {
    let pool = BlockingWorkPool(label: "test-hash", width: 2)

    func hasher(logN: Int = 4) -> ScryptPasswordHasher {
        ScryptPasswordHasher(parameters: .init(logN: logN, r: 8, p: 1), pool: pool)
    }

    @Test func matchesTheRFC7914Vector() throws {
        // RFC 7914 §12, second vector: P="password", S="NaCl", N=1024, r=8, p=16, dkLen=64 (first 32 bytes).
        let derived = try ScryptPasswordHasher.derive(Array("password".utf8), salt: Array("NaCl".utf8), parameters: .init(logN: 10, r: 8, p: 16))
        let expected = "fdbabe1c9d3472007856e7190d01e9fe7c6ad7cbc8237830e77376634b373162"
        #expect(derived.map { String(format: "%02x", $0) }.joined() == expected)
    }

    @Test func hashesVerifiesAndRecordsParameters() async throws {
        let h = hasher()
        let hash = try await h.hash("correct horse 9")
        #expect(hash.hasPrefix("$scrypt$ln=4,r=8,p=1$"))
        #expect(try await h.verify("correct horse 9", against: hash))
        #expect(try await !h.verify("correct horse 8", against: hash))
        #expect(try await !h.verify("correct horse 9 ", against: hash))
        #expect(try await h.hash("correct horse 9") != hash)  // salted
    }

    @Test func refusesTamperedOrForeignHashes() async throws {
        let h = hasher()
        let hash = try await h.hash("pw123456")
        var tampered = Array(hash)
        tampered[tampered.count - 2] = tampered[tampered.count - 2] == "A" ? "B" : "A"
        #expect(try await !h.verify("pw123456", against: String(tampered)))
        #expect(try await !h.verify("pw123456", against: "$2b$12$abcdefghijklmnopqrstuu"))
        #expect(try await !h.verify("pw123456", against: "$scrypt$ln=99,r=8,p=1$AAAA$AAAA"))
    }

    @Test func asksForRehashWhenParametersRise() async throws {
        let weak = try await hasher(logN: 4).hash("pw123456")
        #expect(hasher(logN: 5).needsRehash(weak))
        #expect(!hasher(logN: 4).needsRehash(weak))
        #expect(try await hasher(logN: 5).verify("pw123456", against: weak))
    }

    @Test func boundsConcurrentWork() async throws {
        let narrow = BlockingWorkPool(label: "narrow", width: 1)
        let running = Mutex(0)
        let peak = Mutex(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await narrow.run {
                        let now = running.withLock { $0 += 1; return $0 }
                        peak.withLock { $0 = max($0, now) }
                        usleep(5_000)
                        running.withLock { $0 -= 1 }
                    }
                }
            }
            try await group.waitForAll()
        }
        #expect(peak.withLock { $0 } == 1)
    }
}

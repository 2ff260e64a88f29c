import Foundation
import GatehouseInfrastructure
import Testing

@testable import GatehouseCore

@Suite("Randomness: the buffered system CSPRNG")
struct EntropyPoolTests {
    @Test func handsOutEachByteOnceAcrossRefills() {
        // A small pool refills often: draws of every size straddle refills and stay distinct.
        let pool = EntropyPool(capacity: 256)
        var seen = Set<[UInt8]>()
        for round in 0..<2_000 {
            let draw = pool.bytes(8 + round % 9)  // 8...16 bytes: all from the buffer, which refills every ~20 draws
            #expect(draw.count == 8 + round % 9)
            #expect(seen.insert(draw).inserted, "a draw repeated: the pool handed the same bytes out twice")
        }
    }

    @Test func concurrentDrawsNeverShareBytes() async {
        let pool = EntropyPool(capacity: 256)
        let draws = await withTaskGroup(of: [[UInt8]].self) { group in
            for _ in 0..<8 {
                group.addTask { (0..<500).map { _ in pool.bytes(16) } }
            }
            var all: [[UInt8]] = []
            for await batch in group { all += batch }
            return all
        }
        #expect(draws.count == 4_000)
        #expect(Set(draws).count == draws.count)
    }

    @Test func bytesLookUniform() {
        // 256 KiB of output: every byte value appears close to its expected 1,024 times
        // (chi-square with 255 degrees of freedom; 400 is far beyond the 0.9999 quantile, ~346).
        let pool = EntropyPool()
        var counts = [Int](repeating: 0, count: 256)
        for _ in 0..<(262_144 / 32) {
            for byte in pool.bytes(32) { counts[Int(byte)] += 1 }
        }
        let expected = 1_024.0
        let chiSquare = counts.reduce(0.0) { $0 + (Double($1) - expected) * (Double($1) - expected) / expected }
        #expect(chiSquare < 400, "chi-square \(chiSquare)")
        #expect(counts.allSatisfy { $0 > 0 })
    }

    @Test func largeAndEmptyRequests() {
        let pool = EntropyPool(capacity: 64)
        #expect(pool.bytes(0).isEmpty)
        let large = pool.bytes(10_000)  // bypasses the buffer
        #expect(large.count == 10_000)
        #expect(Set(large).count > 200)
        let system = SystemRandomSource()
        #expect(system.bytes(32) != system.bytes(32))
        #expect(system.uuid().count == 36)
    }

    @Test func versionSevenUUIDsCarryTheTimeAndSortByIt() throws {
        let system = SystemRandomSource()
        let date = Date(timeIntervalSince1970: 1_795_000_000.125)
        let id = system.uuidV7(at: date)
        #expect(id.count == 36)
        let hex = id.replacingOccurrences(of: "-", with: "")
        #expect(UInt64(hex.prefix(12), radix: 16) == 1_795_000_000_125)
        #expect(Array(hex)[12] == "7")
        #expect("89ab".contains(Array(hex)[16]))
        #expect(system.uuidV7(at: date) != id)  // same millisecond, different random part
        let later = (1...50).map { system.uuidV7(at: date.addingTimeInterval(Double($0) / 100)) }
        #expect(later == later.sorted())
        #expect(later.allSatisfy { $0 > id })
        let v4 = system.uuid().replacingOccurrences(of: "-", with: "")
        #expect(Array(v4)[12] == "4")
    }
}

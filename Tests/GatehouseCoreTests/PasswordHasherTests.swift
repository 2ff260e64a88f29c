import Foundation
import GatehouseInfrastructure
import Testing

@testable import GatehouseCore

@Suite("scrypt password hashing")
struct PasswordHasherTests {
    let pool = BlockingWorkPool(label: "test-hash", width: 2).start()

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
        let narrow = BlockingWorkPool(label: "narrow", width: 1).start()
        let running = LockedBox(0)
        let peak = LockedBox(0)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 {
                group.addTask {
                    try await narrow.run {
                        let now = running.withLock {
                            $0 += 1
                            return $0
                        }
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

/// The hashing queue's bounds: one client must not be able to make everyone wait (each scrypt hash
/// also holds 128 MiB). Before these bounds the queue took every job and ran them all in order.
@Suite("Blocking work pool bounds")
struct BlockingWorkPoolBoundsTests {
    /// Occupies the pool's one thread (never a Swift concurrency thread) until ``open()``.
    final class Gate: Sendable {
        private let semaphore = DispatchSemaphore(value: 0)
        private let started = LockedBox(false)
        var isBlocking: Bool { started.withLock { $0 } }
        func block() {
            started.withLock { $0 = true }
            semaphore.wait()
        }
        func open() { semaphore.signal() }
    }

    static func occupy(_ pool: BlockingWorkPool, lane: String? = nil) async -> (Gate, Task<Void, any Error>) {
        let gate = Gate()
        let task = Task { try await pool.run(lane: lane) { gate.block() } }
        while !gate.isBlocking { await Task.yield() }
        return (gate, task)
    }

    @Test func aFullQueueAnswers503WithRetryAfter() async throws {
        let pool = BlockingWorkPool(label: "full", width: 1, limits: .init(maxQueued: 2, perLane: 100, maxWait: 60)).start()
        let (gate, running) = await Self.occupy(pool)
        let queued = (0..<2).map { _ in Task { try await pool.run { 1 } } }
        while pool.queued < 2 { await Task.yield() }
        await #expect { try await pool.run { 1 } } throws: { error in
            let refused = error as? GatehouseError
            return refused?.code == .unavailable && (refused?.retryAfter ?? 0) >= 1
        }
        gate.open()
        try await running.value
        for task in queued { #expect(try await task.value == 1) }
    }

    @Test func oneLaneCannotHoldMoreThanItsShare() async throws {
        let pool = BlockingWorkPool(label: "lanes", width: 1, limits: .init(maxQueued: 100, perLane: 2, maxWait: 60)).start()
        let (gate, running) = await Self.occupy(pool, lane: "flooder")
        let second = Task { try await pool.run(lane: "flooder") { 2 } }
        while pool.queued < 1 { await Task.yield() }
        await #expect { try await pool.run(lane: "flooder") { 3 } } throws: { ($0 as? GatehouseError)?.code == .tooManyRequests }
        let other = Task { try await pool.run(lane: "someone-else") { 4 } }
        gate.open()
        try await running.value
        #expect(try await second.value == 2)
        #expect(try await other.value == 4)
        // The lane's share is free again once its jobs are done.
        #expect(try await pool.run(lane: "flooder") { 5 } == 5)
    }

    @Test func jobsThatWaitedPastTheLimitAreDroppedUnrun() async throws {
        let pool = BlockingWorkPool(label: "wait", width: 1, limits: .init(maxQueued: 100, perLane: 100, maxWait: 0.2)).start()
        let (gate, running) = await Self.occupy(pool)
        let ran = LockedBox(false)
        let late = Task { try await pool.run { ran.withLock { $0 = true } } }
        while pool.queued < 1 { await Task.yield() }
        try await Task.sleep(for: .milliseconds(400))  // the queued job's limit passes while the thread is busy
        gate.open()
        try await running.value
        await #expect { try await late.value } throws: { ($0 as? GatehouseError)?.code == .unavailable }
        #expect(ran.withLock { $0 } == false)
    }

    @Test func aCancelledCallersJobIsDroppedUnrun() async throws {
        let pool = BlockingWorkPool(label: "cancel", width: 1, limits: .init(maxQueued: 100, perLane: 100, maxWait: 60)).start()
        let (gate, running) = await Self.occupy(pool)
        let ran = LockedBox(false)
        let abandoned = Task { try await pool.run { ran.withLock { $0 = true } } }
        while pool.queued < 1 { await Task.yield() }
        abandoned.cancel()
        gate.open()
        try await running.value
        await #expect(throws: CancellationError.self) { try await abandoned.value }
        #expect(ran.withLock { $0 } == false)
    }

    @Test func theDefaultWidthAlsoFollowsMemory() {
        #expect(BlockingWorkPool.defaultWidth(bytesPerJob: Int.max) == 1)
        #expect(BlockingWorkPool.defaultWidth(bytesPerJob: 1) == max(1, ProcessInfo.processInfo.activeProcessorCount - 1))
    }
}

@Suite("Blocking work pool fairness")
struct BlockingWorkPoolFairnessTests {
    /// Waiting jobs are served round-robin across lanes: a client with one job waits behind at most
    /// one job of a client that queued many (it used to wait behind all of them, in arrival order).
    @Test func aLaneWithOneJobDoesNotWaitBehindAnotherLanesBacklog() async throws {
        let pool = BlockingWorkPool(label: "fair", width: 1, limits: .init(maxQueued: 100, perLane: 100, maxWait: 60)).start()
        let (gate, running) = await BlockingWorkPoolBoundsTests.occupy(pool, lane: "flooder")
        let order = LockedBox<[String]>([])
        var tasks: [Task<Void, any Error>] = []
        for index in 0..<5 {
            tasks.append(Task { try await pool.run(lane: "flooder") { order.withLock { $0.append("flooder-\(index)") } } })
            while pool.queued < index + 1 { await Task.yield() }
        }
        tasks.append(Task { try await pool.run(lane: "legit") { order.withLock { $0.append("legit") } } })
        while pool.queued < 6 { await Task.yield() }
        gate.open()
        try await running.value
        for task in tasks { try await task.value }
        let served = order.withLock { $0 }
        #expect(served.firstIndex(of: "legit") == 1, "\(served)")
        #expect(served.filter { $0.hasPrefix("flooder") } == (0..<5).map { "flooder-\($0)" }, "a lane stays in order")
    }
}

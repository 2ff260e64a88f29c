import Foundation
import NIOPosix
import ServiceLifecycle

#if canImport(Glibc)
import Glibc
#endif

/// Runs CPU-heavy synchronous work (password hashing) on its own few threads, never on the event
/// loops that answer requests. The threads run in Linux's idle scheduling class, so while sign-ins
/// hash, the kernel still gives request handling the CPU first (under full load hashing slows down
/// rather than the whole server).
///
/// Waiting jobs are served round-robin across lanes (client addresses), oldest first within a
/// lane, so a client's job waits for at most one job of each other busy client, however many that
/// client has queued. The queue is bounded so one client cannot make everyone wait (each scrypt
/// hash also holds 128 MiB at the default parameters):
/// - at most ``Limits/maxQueued`` jobs wait; past that ``run(lane:_:)`` answers 503 `unavailable`
///   with a Retry-After estimated from recent job times;
/// - at most ``Limits/perLane`` jobs of one lane (a client address) are queued or running; past
///   that it answers 429 `too_many_requests`;
/// - a job whose caller's task was cancelled, or that waited longer than ``Limits/maxWait`` (its
///   client has most likely given up), is dropped without running.
///
/// The threads belong to a `NIOThreadPool` (each runs one of this pool's workers, which take jobs
/// by the policy above). Nothing starts in `init`: the threads start in ``run()`` (the pool is a
/// `Service` in the server's service group) or ``start()`` (tests, one-off commands); jobs queued
/// before that wait for it. Kept over a plain `NIOThreadPool.runIfActive`: the admission bounds,
/// lanes, round-robin and max-wait are this server's flood policy, which `NIOThreadPool`'s single
/// FIFO does not have. Their cost: 0.61x to 0.84x `NIOThreadPool.runIfActive`'s rate on a no-op job
/// (Benchmarks/Microbench `blocking-pool`, two runs), 3 to 10 µs per job against a 230 ms scrypt hash.
package final class BlockingWorkPool: Service, Sendable {
    /// Why a job was not taken; ``init(label:width:limits:niceness:refusal:)`` turns it into the error thrown.
    package enum Refusal: Sendable {
        /// The queue holds ``Limits/maxQueued`` jobs.
        case queueFull(queued: Int, retryAfter: Int)
        /// The lane holds ``Limits/perLane`` jobs.
        case laneFull(retryAfter: Int)
        /// The job waited past ``Limits/maxWait``.
        case waitedTooLong
    }

    /// The bounds of the queue.
    package struct Limits: Sendable, Equatable {
        /// Jobs waiting for a thread, at most.
        package var maxQueued: Int
        /// Jobs of one lane (queued or running), at most.
        package var perLane: Int
        /// How long a job may wait for a thread before it is dropped.
        package var maxWait: TimeInterval

        /// - Parameters:
        ///   - maxQueued: Jobs waiting for a thread, at most (at least 1).
        ///   - perLane: Jobs of one lane queued or running, at most (at least 1).
        ///   - maxWait: Seconds a job may wait before it is dropped.
        package init(maxQueued: Int = 32, perLane: Int = 4, maxWait: TimeInterval = 10) {
            self.maxQueued = max(1, maxQueued)
            self.perLane = max(1, perLane)
            self.maxWait = max(0.1, maxWait)
        }
    }

    private final class Job: @unchecked Sendable {
        let run: @Sendable () -> Void
        let drop: @Sendable (any Error) -> Void
        let lane: String?
        let enqueuedAt: ContinuousClock.Instant
        /// Guarded by the pool's lock.
        var cancelled = false

        init(lane: String?, run: @escaping @Sendable () -> Void, drop: @escaping @Sendable (any Error) -> Void) {
            self.lane = lane
            self.run = run
            self.drop = drop
            self.enqueuedAt = .now
        }
    }

    private struct State {
        /// Waiting jobs, one FIFO queue per lane (`nil` lane: ""), served round-robin.
        var waiting: [String: [Job]] = [:]
        /// Lanes with waiting jobs, in the order they are served next.
        var rotation: [String] = []
        var queuedCount = 0

        mutating func enqueue(_ job: Job) {
            let lane = job.lane ?? ""
            if waiting[lane, default: []].isEmpty { rotation.append(lane) }
            waiting[lane, default: []].append(job)
            queuedCount += 1
        }

        /// The next lane's oldest job; the lane goes to the back of the rotation if it has more.
        mutating func dequeue() -> Job? {
            guard !rotation.isEmpty else { return nil }
            let lane = rotation.removeFirst()
            var jobs = waiting[lane] ?? []
            let job = jobs.removeFirst()
            if jobs.isEmpty {
                waiting[lane] = nil
            } else {
                waiting[lane] = jobs
                rotation.append(lane)
            }
            queuedCount -= 1
            return job
        }
        var perLane: [String: Int] = [:]
        /// Smoothed seconds per job, for Retry-After.
        var averageJobSeconds: Double = 0.3
        var started = false
        var stopping = false
    }

    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()
    private let label: String
    private let niceness: Int32
    private let makeError: @Sendable (Refusal) -> any Error
    private let threads: NIOThreadPool
    package let width: Int
    package let limits: Limits

    /// - Parameters:
    ///   - label: The pool's name (for logs).
    ///   - width: How many jobs run at once (threads).
    ///   - limits: The queue's bounds.
    ///   - niceness: The nice value used where the idle scheduling class is refused.
    ///   - refusal: The error thrown for a refused or dropped job.
    package init(
        label: String,
        width: Int,
        limits: Limits = Limits(),
        niceness: Int32 = 19,
        refusal: @escaping @Sendable (Refusal) -> any Error
    ) {
        self.label = label
        self.width = max(1, width)
        self.limits = limits
        self.niceness = niceness
        self.makeError = refusal
        self.threads = NIOThreadPool(numberOfThreads: self.width)
    }

    /// Starts the threads (once; later calls do nothing). ``run()`` calls it; so do tests and
    /// one-off commands that use the pool outside a service group.
    /// - Returns: The pool, started.
    @discardableResult
    package func start() -> Self {
        condition.lock()
        let first = !state.started
        state.started = true
        condition.unlock()
        guard first else { return self }
        threads.start()
        for _ in 0..<width {
            threads.submit { [self] _ in
                #if canImport(Glibc)
                Self.yieldToRequestHandling(niceness: niceness)
                #endif
                self.work()
            }
        }
        return self
    }

    /// Starts the threads and runs until graceful shutdown or cancellation; then the workers stop
    /// once their current job is done, and the threads end before this returns. Jobs still queued
    /// are dropped with the `waitedTooLong` refusal.
    /// - Throws: What shutting the thread pool down throws.
    package func run() async throws {
        start()
        try? await gracefulShutdown()  // returns at graceful shutdown, throws at cancellation: either way, stop
        stop()
        try await threads.shutdownGracefully()
    }

    /// Stops the workers: each ends after its current job; queued jobs are dropped.
    package func stop() {
        condition.lock()
        state.stopping = true
        var dropped: [Job] = []
        while let job = state.dequeue() { dropped.append(job) }
        condition.broadcast()
        condition.unlock()
        for job in dropped {
            finish(job)
            job.drop(makeError(.waitedTooLong))
        }
    }

    #if canImport(Glibc)
    /// Puts the calling thread in the `SCHED_IDLE` class, so any woken request-handling thread
    /// preempts it at once; where that is refused, the lowest nice value instead. On Linux both are
    /// per-thread (`who == 0` is the calling thread).
    private static func yieldToRequestHandling(niceness: Int32) {
        var parameters = sched_param()
        parameters.sched_priority = 0
        let schedIdle: Int32 = 5  // SCHED_IDLE (linux/sched.h); not exported by Glibc to Swift
        if sched_setscheduler(0, schedIdle, &parameters) != 0 {
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, niceness)
        }
    }
    #endif

    private func work() {
        while true {
            condition.lock()
            var next = state.dequeue()
            while next == nil && !state.stopping {
                condition.wait()
                next = state.dequeue()
            }
            guard let job = next else {
                condition.unlock()
                return
            }
            let waited = ContinuousClock.now - job.enqueuedAt
            let dropReason: (any Error)? =
                job.cancelled
                ? CancellationError()
                : waited > .milliseconds(Int64(limits.maxWait * 1000))
                    ? makeError(.waitedTooLong) : nil
            condition.unlock()
            if let dropReason {
                finish(job)
                job.drop(dropReason)
                continue
            }
            let start = ContinuousClock.now
            job.run()
            let elapsed = ContinuousClock.now - start
            let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
            condition.lock()
            state.averageJobSeconds = state.averageJobSeconds * 0.8 + seconds * 0.2
            condition.unlock()
            finish(job)
        }
    }

    private func finish(_ job: Job) {
        guard let lane = job.lane else { return }
        condition.lock()
        let left = (state.perLane[lane] ?? 1) - 1
        state.perLane[lane] = left > 0 ? left : nil
        condition.unlock()
    }

    /// Runs `work` on the pool (round-robin across lanes, in arrival order within one) and returns its result.
    /// - Parameters:
    ///   - lane: Who the work is for (a client address), for the per-lane cap; `nil` for none.
    ///   - work: The synchronous work.
    /// - Returns: What `work` returns.
    /// - Throws: 503 `unavailable` (queue full, or waited too long), 429 `too_many_requests` (the lane
    ///   is at its cap), `CancellationError` (the caller's task was cancelled before the job ran), or
    ///   what `work` throws.
    package func run<T: Sendable>(lane: String? = nil, _ work: @escaping @Sendable () throws -> T) async throws -> T {
        let holder = LockedBox<Job?>(nil)
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                let job = Job(lane: lane, run: { continuation.resume(with: Result { try work() }) }, drop: { continuation.resume(throwing: $0) })
                condition.lock()
                if let refusal = refusal(lane: lane) {
                    condition.unlock()
                    continuation.resume(throwing: refusal)
                    return
                }
                if let lane { state.perLane[lane, default: 0] += 1 }
                if Task.isCancelled { job.cancelled = true }
                holder.withLock { $0 = job }
                state.enqueue(job)
                condition.signal()
                condition.unlock()
            }
        } onCancel: {
            guard let job = holder.withLock({ $0 }) else { return }
            condition.lock()
            job.cancelled = true
            condition.unlock()
        }
    }

    /// Throws what ``run(lane:_:)`` would throw right now for a full queue or a lane at its cap,
    /// without queuing anything: callers check it before work that only matters if the job will be
    /// taken (a sign-in's database writes), so a refused flood costs no more than this look.
    /// ``run(lane:_:)`` still decides; this is only the cheap early answer.
    /// - Parameter lane: Who the work is for, or `nil`.
    /// - Throws: 503 `unavailable` or 429 `too_many_requests`, with Retry-After.
    package func checkAdmission(lane: String?) throws {
        condition.lock()
        defer { condition.unlock() }
        if let refusal = refusal(lane: lane) { throw refusal }
    }

    /// Why a job for `lane` would be refused now (call with the lock held), or `nil`.
    private func refusal(lane: String?) -> (any Error)? {
        let queued = state.queuedCount
        if queued >= limits.maxQueued || state.stopping {
            let retryAfter = Int((Double(queued) * state.averageJobSeconds / Double(width)).rounded(.up))
            return makeError(.queueFull(queued: queued, retryAfter: max(1, retryAfter)))
        }
        if let lane, (state.perLane[lane] ?? 0) >= limits.perLane {
            return makeError(.laneFull(retryAfter: max(1, Int(state.averageJobSeconds.rounded(.up)))))
        }
        return nil
    }

    /// Jobs waiting for a thread.
    package var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.queuedCount
    }

    /// A default width: one thread per core but one (request handling keeps a core), and no more
    /// than a quarter of the memory this process may use can hold at once.
    /// - Parameter bytesPerJob: Memory one job holds (a scrypt hash: 128 MiB at the defaults).
    /// - Returns: At least 1.
    package static func defaultWidth(bytesPerJob: Int) -> Int {
        let byCores = ProcessInfo.processInfo.activeProcessorCount - 1
        let byMemory = Int(min(UInt64(Int.max), availableMemory() / 4) / UInt64(max(1, bytesPerJob)))
        return max(1, min(byCores, byMemory))
    }

    /// The memory this process may use: the cgroup's limit when one is set, else physical memory.
    static func availableMemory() -> UInt64 {
        let physical = ProcessInfo.processInfo.physicalMemory
        for path in ["/sys/fs/cgroup/memory.max", "/sys/fs/cgroup/memory/memory.limit_in_bytes"] {
            if let text = try? String(contentsOfFile: path, encoding: .utf8),
                let limit = UInt64(text.trimmingCharacters(in: .whitespacesAndNewlines)), limit > 0, limit < physical
            {
                return limit
            }
        }
        return physical
    }
}

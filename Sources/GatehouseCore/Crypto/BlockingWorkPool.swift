import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// Runs CPU-heavy synchronous work (password hashing) on its own few threads, never on the event
/// loops that answer requests. The threads run in Linux's idle scheduling class, so while sign-ins
/// hash, the kernel still gives request handling the CPU first (under full load hashing slows down
/// rather than the whole server); jobs queue in order
/// instead of piling up memory (each scrypt hash holds 128 MiB at the default parameters).
public final class BlockingWorkPool: Sendable {
    private struct Job {
        let run: @Sendable () -> Void
    }

    private struct State {
        var jobs: [Job] = []
        var head = 0
    }

    private let condition = NSCondition()
    private nonisolated(unsafe) var state = State()
    public let width: Int

    public init(label: String, width: Int, niceness: Int32 = 19) {
        self.width = max(1, width)
        for index in 0..<self.width {
            let thread = Thread { [self] in
                #if canImport(Glibc)
                Self.yieldToRequestHandling(niceness: niceness)
                #endif
                self.work()
            }
            thread.name = "\(label)-\(index)"
            thread.start()
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
            while state.head == state.jobs.count { condition.wait() }
            let job = state.jobs[state.head]
            state.head += 1
            if state.head == state.jobs.count {
                state.jobs.removeAll(keepingCapacity: true)
                state.head = 0
            }
            condition.unlock()
            job.run()
        }
    }

    /// Runs `work` on the pool, in arrival order, and returns its result.
    public func run<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            condition.lock()
            state.jobs.append(Job { continuation.resume(with: Result { try work() }) })
            condition.signal()
            condition.unlock()
        }
    }

    /// Jobs waiting for a thread.
    public var queued: Int {
        condition.lock()
        defer { condition.unlock() }
        return state.jobs.count - state.head
    }

    /// A default width that leaves at least one core for request handling.
    public static var defaultWidth: Int {
        max(1, ProcessInfo.processInfo.activeProcessorCount - 1)
    }
}

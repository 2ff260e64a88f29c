import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseSQLite
import Logging
import ServiceLifecycle

/// Copies the write-ahead log back into the database file on a thread of its own.
///
/// SQLite's automatic checkpoint runs inside the `COMMIT` that crosses the WAL threshold: that
/// request copies a thousand pages and waits for two `fsync`s on a Swift concurrency thread (one of
/// as many as there are cores) while holding the writer turn, and every write queues behind it.
/// Here the writer connection only commits (`wal_autocheckpoint = 0`), and this thread checkpoints
/// shortly after writes, alongside them (passive checkpoints block neither readers nor the
/// writer). A passive checkpoint cannot catch up with a writer that never pauses, and the log only
/// starts over once it has, so when the log passes `restartFrames` the thread also takes the
/// writer turn for one short catch-up pass (writes queue without blocking any thread meanwhile);
/// the next write then starts the log from its beginning. Durability is unchanged (WAL with
/// `synchronous = NORMAL`).
///
/// Nothing starts in `init`: the thread runs while ``run()`` does (the checkpointer is a `Service`,
/// returned by ``StoreLocation/open(logger:)`` for the server's service group), from ``start()``
/// until ``stop()``. Without it commits still succeed; the log only grows until the store closes.
final class SQLiteCheckpointer: Service, @unchecked Sendable {
    private let connection: DirectSQLiteConnection
    private let writerTurn: AsyncSemaphore
    private let logger: Logger
    private let interval: TimeInterval
    private let restartFrames: Int
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var pendingCommits = 0
    private var started = false
    private var stopping = false
    private var finished = false
    private var checkpoints = 0

    /// How many checkpoints have run (for tests).
    var checkpointCount: Int { condition.withLock { checkpoints } }

    init(path: String, writerTurn: AsyncSemaphore, interval: TimeInterval = 0.1, restartFrames: Int = 4096, logger: Logger) throws {
        connection = try DirectSQLiteConnection(path: path)
        self.writerTurn = writerTurn
        self.interval = interval
        self.restartFrames = restartFrames
        self.logger = logger
        try connection.execute("PRAGMA busy_timeout = 5000", []) { _ in }
    }

    /// Starts the thread (once; later calls, and calls after ``stop()``, do nothing).
    func start() {
        // A store closed before the service ran never starts the thread, and `run()` sees
        // `stopping && !started` and returns.
        let first = condition.withLock {
            guard !started && !stopping else { return false }
            started = true
            return true
        }
        guard first else { return }
        let thread = Thread { [self] in loop() }
        thread.name = "gatehouse-sqlite-checkpoint"
        thread.start()
    }

    /// Runs the thread until graceful shutdown or cancellation (or until the store closes and
    /// calls ``stop()``), and returns once it has ended.
    func run() async throws {
        start()
        await withTaskCancellationOrGracefulShutdownHandler {
            while !condition.withLock({ finished || (stopping && !started) }) {
                try? await Task.sleep(for: .milliseconds(50))
                if Task.isCancelled { break }
            }
        } onCancelOrGracefulShutdown: {
            self.stop()
        }
    }

    /// Called after each commit of the writer connection.
    func noteCommit() {
        condition.withLock {
            pendingCommits += 1
            if pendingCommits == 1 { condition.signal() }
        }
    }

    /// Ends the thread (without waiting for it). The store checkpoints fully itself when it closes.
    func stop() {
        condition.withLock {
            stopping = true
            condition.signal()
        }
    }

    private var isStopping: Bool { condition.withLock { stopping } }

    /// One passive checkpoint; returns how many frames the log holds, or nil if it failed.
    private func checkpoint() -> Int? {
        do {
            var frames = 0
            try connection.execute("PRAGMA wal_checkpoint(PASSIVE)", []) { row in
                if case .integer(let log) = try row.value("log") { frames = Int(log) }
            }
            condition.withLock { checkpoints += 1 }
            return frames
        } catch {
            logger.warning("WAL checkpoint failed; retrying after the next write", metadata: ["error": .string("\(error)")])
            return nil
        }
    }

    private func loop() {
        defer {
            connection.close()
            condition.withLock { finished = true }
        }
        while true {
            condition.lock()
            while pendingCommits == 0 && !stopping { condition.wait() }
            let stop = stopping
            condition.unlock()
            if stop { return }
            // Let a burst of commits gather: one checkpoint (two fsyncs) covers them all.
            Thread.sleep(forTimeInterval: interval)
            condition.withLock { pendingCommits = 0 }
            guard let logFrames = checkpoint() else { continue }
            if logFrames > restartFrames {
                writerTurn.acquireBlocking()
                if !isStopping { _ = checkpoint() }
                writerTurn.release()
            }
        }
    }
}

import GatehouseCore
import GatehouseInfrastructure
import GatehouseSQLite
import Logging
import SQLKit

/// Write transactions that arrive while another one runs share the next `COMMIT` (group commit).
///
/// SQLite has one writer. Taking turns one transaction at a time, each turn passes to a task that
/// must first be scheduled, and under load every write waits for those hand-overs; each commit also
/// appends the pages it touched to the WAL, even the table page the previous commit just wrote.
/// Here a write joins a queue; when none is running, the caller leads: it runs every queued write
/// in one transaction, each inside its own savepoint, so one that throws is rolled back alone and
/// the others commit. Callers get their results after the `COMMIT`, never before. The leader then
/// passes the lead to the first write that queued meanwhile, so no caller waits behind more than
/// one batch of others.
final class SQLiteGroupCommit: Sendable {
    typealias Body = @Sendable (any SQLDatabase) async throws -> any Sendable

    private struct State {
        var queue: [Job] = []
        var leading = false
        var transactions = 0
        var writes = 0
    }

    private let writer: DirectSQLiteConnection
    private let writerTurn: AsyncSemaphore
    private let afterCommit: @Sendable () -> Void
    private let logger: Logger
    private let state = LockedBox(State())

    init(writer: DirectSQLiteConnection, writerTurn: AsyncSemaphore, logger: Logger, afterCommit: @escaping @Sendable () -> Void) {
        self.writer = writer
        self.writerTurn = writerTurn
        self.logger = logger
        self.afterCommit = afterCommit
    }

    /// Committed transactions, the writes they held, and the writes waiting now (for tests).
    var counts: (transactions: Int, writes: Int, queued: Int) { state.withLock { ($0.transactions, $0.writes, $0.queue.count) } }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        let job = Job(body: { try await body($0) })
        let leads = state.withLock { state -> Bool in
            state.queue.append(job)
            if state.leading { return false }
            state.leading = true
            return true
        }
        var outcome: Job.Outcome = leads ? .lead : await job.next()
        while true {
            switch outcome {
            case .done(let result):
                return try result.get() as! T
            case .lead:
                await runBatch()
                let next = state.withLock { state -> Job? in
                    if state.queue.isEmpty { state.leading = false }
                    return state.queue.first
                }
                next?.resolve(.lead)
                outcome = await job.next()  // this write was in the batch: its result is there
            }
        }
    }

    private func runBatch() async {
        let jobs = state.withLock { state -> [Job] in
            defer { state.queue.removeAll(keepingCapacity: true) }
            return state.queue
        }
        await writerTurn.acquire()
        defer { writerTurn.release() }
        let db = DirectSQLiteDatabase(connection: writer, logger: logger)
        func failAll(_ error: any Error) async {
            try? await db.raw("ROLLBACK").run()
            for job in jobs { job.resolve(.done(.failure(error))) }
        }
        do {
            try await db.raw("BEGIN IMMEDIATE").run()
        } catch {
            for job in jobs { job.resolve(.done(.failure(error))) }
            return
        }
        var results: [Result<any Sendable, any Error>] = []
        results.reserveCapacity(jobs.count)
        if jobs.count == 1 {
            do {
                results.append(.success(try await jobs[0].body(db)))
            } catch {
                return await failAll(error)
            }
        } else {
            for job in jobs {
                do {
                    try await db.raw("SAVEPOINT gh_write").run()
                    let result: Result<any Sendable, any Error>
                    do {
                        result = .success(try await job.body(db))
                    } catch {
                        result = .failure(error)
                    }
                    if case .failure = result { try await db.raw("ROLLBACK TO gh_write").run() }
                    try await db.raw("RELEASE gh_write").run()
                    results.append(result)
                } catch {
                    // The transaction itself is gone (SQLite ends it on I/O errors, a full disk …):
                    // no write of the batch is kept, so none may report success.
                    return await failAll(error)
                }
            }
        }
        do {
            try await db.raw("COMMIT").run()
        } catch {
            return await failAll(error)
        }
        state.withLock {
            $0.transactions += 1
            $0.writes += jobs.count
        }
        afterCommit()
        for (job, result) in zip(jobs, results) { job.resolve(.done(result)) }
    }

    /// One queued write: its body, and where its caller waits for the lead or its result.
    final class Job: Sendable {
        enum Outcome: Sendable {
            /// Run the next batch.
            case lead
            case done(Result<any Sendable, any Error>)
        }

        private struct Slot {
            var outcome: Outcome?
            var waiter: CheckedContinuation<Outcome, Never>?
        }

        let body: Body
        private let slot = LockedBox(Slot())

        init(body: @escaping Body) {
            self.body = body
        }

        func resolve(_ outcome: Outcome) {
            let waiter = slot.withLock { slot -> CheckedContinuation<Outcome, Never>? in
                if let waiter = slot.waiter {
                    slot.waiter = nil
                    return waiter
                }
                slot.outcome = outcome
                return nil
            }
            waiter?.resume(returning: outcome)
        }

        func next() async -> Outcome {
            await withCheckedContinuation { continuation in
                let ready = slot.withLock { slot -> Outcome? in
                    if let outcome = slot.outcome {
                        slot.outcome = nil
                        return outcome
                    }
                    slot.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseSQLite
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// SQLite in WAL mode: one writer connection whose transactions take turns (`BEGIN IMMEDIATE`,
/// concurrent ones sharing a commit: ``SQLiteGroupCommit``), a few reader connections that never
/// wait for the writer, and a checkpointer on its own thread (``SQLiteCheckpointer``). Statements
/// run in place through ``DirectSQLiteConnection`` (each is microseconds in WAL mode; a busy lock
/// from another process waits at most `busy_timeout`).
final class SQLiteBackend: SQLBackend {
    let name = "sqlite"
    let path: String
    private let logger: Logger
    private let writer: DirectSQLiteConnection
    private let writerTurn: AsyncSemaphore
    private let readers: [DirectSQLiteConnection]
    private let readerSlots: AsyncSemaphore
    private let freeReaders: LockedBox<[Int]>
    private let closed = LockedBox(false)
    /// Checkpoints the WAL off the request path (see ``SQLiteCheckpointer``).
    let checkpointer: SQLiteCheckpointer
    /// Concurrent write transactions share a commit (see ``SQLiteGroupCommit``).
    let groupCommit: SQLiteGroupCommit

    private init(
        path: String,
        writer: DirectSQLiteConnection,
        writerTurn: AsyncSemaphore,
        readers: [DirectSQLiteConnection],
        checkpointer: SQLiteCheckpointer,
        logger: Logger
    ) {
        self.path = path
        self.writer = writer
        self.writerTurn = writerTurn
        self.checkpointer = checkpointer
        self.groupCommit = SQLiteGroupCommit(writer: writer, writerTurn: writerTurn, logger: logger, afterCommit: { checkpointer.noteCommit() })
        self.readers = readers
        self.logger = logger
        self.readerSlots = AsyncSemaphore(count: readers.count)
        self.freeReaders = LockedBox(Array(readers.indices))
    }

    static func open(path: String, readerCount: Int = 4, checkpointRestartFrames: Int = 4096, logger: Logger) async throws -> SQLiteBackend {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let writer = try DirectSQLiteConnection(path: path)
        let db = DirectSQLiteDatabase(connection: writer, logger: logger)
        // busy_timeout matters only when another process (e.g. `gatehouse migrate`) holds the lock.
        try await db.raw("PRAGMA busy_timeout = 5000").run()
        try await db.raw("PRAGMA journal_mode = WAL").run()
        try await db.raw("PRAGMA synchronous = NORMAL").run()
        try await db.raw("PRAGMA foreign_keys = ON").run()
        // Commits never checkpoint; the checkpointer's thread does.
        try await db.raw("PRAGMA wal_autocheckpoint = 0").run()
        // A log that grew in a burst is cut back to 64 MiB once it starts over.
        try await db.raw("PRAGMA journal_size_limit = 67108864").run()
        chmodDatabase(path)
        var readers: [DirectSQLiteConnection] = []
        for _ in 0..<max(1, readerCount) {
            let reader = try DirectSQLiteConnection(path: path)
            let rdb = DirectSQLiteDatabase(connection: reader, logger: logger)
            try await rdb.raw("PRAGMA busy_timeout = 5000").run()
            try await rdb.raw("PRAGMA query_only = ON").run()
            readers.append(reader)
        }
        let writerTurn = AsyncSemaphore(count: 1)
        let checkpointer = try SQLiteCheckpointer(path: path, writerTurn: writerTurn, restartFrames: checkpointRestartFrames, logger: logger)
        return SQLiteBackend(path: path, writer: writer, writerTurn: writerTurn, readers: readers, checkpointer: checkpointer, logger: logger)
    }

    /// The database holds password hashes and sealed keys: owner-only.
    private static func chmodDatabase(_ path: String) {
        for file in [path, path + "-wal", path + "-shm"] where FileManager.default.fileExists(atPath: file) {
            try? FileManager.default.setAttributes([.posixPermissions: 0o600], ofItemAtPath: file)
        }
    }

    func read<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        await readerSlots.acquire()
        let index = freeReaders.withLock { $0.removeLast() }
        defer {
            freeReaders.withLock { $0.append(index) }
            readerSlots.release()
        }
        return try await body(DirectSQLiteDatabase(connection: readers[index], logger: logger))
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        try await groupCommit.write(body)
    }

    /// Re-preparations of cached statements across every connection (see ``DirectSQLiteConnection/reprepareCount``).
    var reprepareCount: Int { ([writer] + readers).reduce(0) { $0 + $1.reprepareCount } }

    func isUniqueViolation(_ error: any Error) -> Bool {
        (error as? DirectSQLiteError)?.isUniqueViolation ?? false
    }

    func isUnavailable(_ error: any Error) -> Bool {
        guard let error = error as? DirectSQLiteError else { return false }
        // BUSY, LOCKED, NOMEM, READONLY, IOERR, CORRUPT, FULL, CANTOPEN, NOTADB, MISUSE (closed)
        return [5, 6, 7, 8, 10, 11, 13, 14, 26, 21].contains(error.primaryCode)
    }

    func prepareForMigration() async throws {}

    func lockForMigration(_ db: any SQLDatabase) async throws {
        // BEGIN IMMEDIATE already holds the database's write lock.
    }

    func close() async throws {
        let alreadyClosed = closed.withLock { closed in
            defer { closed = true }
            return closed
        }
        if alreadyClosed { return }
        // Wait for the writer's turn so no transaction is cut in half.
        await writerTurn.acquire()
        checkpointer.stop()
        for reader in readers { reader.close() }
        do {
            try writer.execute("PRAGMA wal_checkpoint(TRUNCATE)", []) { _ in }
        } catch {
            logger.warning("final WAL checkpoint failed; the next start completes it", metadata: ["error": .string("\(error)")])
        }
        writer.close()
        writerTurn.release()
    }
}

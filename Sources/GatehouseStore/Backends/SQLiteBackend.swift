import Foundation
import GatehouseCore
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// SQLite in WAL mode: one writer connection (write transactions take turns, `BEGIN IMMEDIATE`) and a
/// few reader connections that never wait for the writer. Blocking SQLite calls run on the backend's
/// own thread pool, never on an event loop.
final class SQLiteBackend: SQLBackend {
    let name = "sqlite"
    let path: String
    private let threadPool: NIOThreadPool
    private let writer: SQLiteConnection
    private let writerTurn = AsyncSemaphore(count: 1)
    private let readers: [SQLiteConnection]
    private let readerSlots: AsyncSemaphore
    private let freeReaders: Mutex<[Int]>
    private let closed = Mutex(false)

    private init(path: String, threadPool: NIOThreadPool, writer: SQLiteConnection, readers: [SQLiteConnection]) {
        self.path = path
        self.threadPool = threadPool
        self.writer = writer
        self.readers = readers
        self.readerSlots = AsyncSemaphore(count: readers.count)
        self.freeReaders = Mutex(Array(readers.indices))
    }

    static func open(path: String, readerCount: Int = 2, logger: Logger) async throws -> SQLiteBackend {
        let directory = (path as NSString).deletingLastPathComponent
        if !directory.isEmpty {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        }
        let pool = NIOThreadPool(numberOfThreads: max(2, readerCount))
        pool.start()
        let eventLoop = MultiThreadedEventLoopGroup.singleton.any()
        do {
            let writer = try await SQLiteConnection.open(storage: .file(path: path), threadPool: pool, logger: logger, on: eventLoop)
            let db = writer.sql(queryLogLevel: nil)
            // busy_timeout replaces sqlite-nio's spinning busy handler with SQLite's sleeping one; it
            // matters only when another process (e.g. `gatehouse migrate`) holds the lock.
            try await db.raw("PRAGMA busy_timeout = 10000").run()
            try await db.raw("PRAGMA journal_mode = WAL").run()
            try await db.raw("PRAGMA synchronous = NORMAL").run()
            try await db.raw("PRAGMA foreign_keys = ON").run()
            chmodDatabase(path)
            var readers: [SQLiteConnection] = []
            for _ in 0..<max(1, readerCount) {
                let reader = try await SQLiteConnection.open(storage: .file(path: path), threadPool: pool, logger: logger, on: eventLoop)
                let rdb = reader.sql(queryLogLevel: nil)
                try await rdb.raw("PRAGMA busy_timeout = 10000").run()
                try await rdb.raw("PRAGMA query_only = ON").run()
                readers.append(reader)
            }
            return SQLiteBackend(path: path, threadPool: pool, writer: writer, readers: readers)
        } catch {
            try? await pool.shutdownGracefully()
            throw error
        }
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
        return try await body(readers[index].sql(queryLogLevel: nil))
    }

    func write<T: Sendable>(_ body: @escaping @Sendable (any SQLDatabase) async throws -> T) async throws -> T {
        await writerTurn.acquire()
        defer { writerTurn.release() }
        let db = writer.sql(queryLogLevel: nil)
        try await db.raw("BEGIN IMMEDIATE").run()
        do {
            let result = try await body(db)
            try await db.raw("COMMIT").run()
            return result
        } catch {
            try? await db.raw("ROLLBACK").run()
            throw error
        }
    }

    func isUniqueViolation(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        switch error.reason {
        case .constraintUniqueFailed, .constraintPrimaryKeyFailed: return true
        default: return false
        }
    }

    func isUnavailable(_ error: any Error) -> Bool {
        guard let error = error as? SQLiteError else { return false }
        switch error.reason {
        case .busy, .busyTimeout, .locked, .ioError, .full, .cantOpen, .readOnly, .notADatabase, .corrupt, .misuse: return true
        default: return false
        }
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
        for reader in readers { try? await reader.close() }
        try? await writer.close()
        try await threadPool.shutdownGracefully()
    }
}

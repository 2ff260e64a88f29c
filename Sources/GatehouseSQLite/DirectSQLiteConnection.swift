internal import CSQLite
import Foundation

/// A SQLite error with the engine's (extended) result code.
package struct DirectSQLiteError: Error, CustomStringConvertible, Sendable {
    package let code: Int32
    package let message: String

    package var primaryCode: Int32 { code & 0xFF }
    package var isUniqueViolation: Bool {
        // SQLITE_CONSTRAINT_UNIQUE, SQLITE_CONSTRAINT_PRIMARYKEY
        code == 2067 || code == 1555
    }
    package var description: String { "SQLite error \(code): \(message)" }
}

/// One SQLite connection driven directly through the C API (the system library, `CSQLite`, so one SQLite library
/// opens the database file in this process):
/// statements run in place, prepared once and cached, instead of a thread-pool round trip per
/// statement. The store gives a connection to one task at a time (see GatehouseStore's `SQLiteBackend`), and every
/// statement is short: WAL mode, no fsync per commit, pages usually cached.
///
/// Kept over sqlite-nio's public `SQLiteConnection` (which runs each statement on its thread pool):
/// 10.6x its rate for the store's typical read, a primary-key lookup (Benchmarks/Microbench `sqlite-read`).
package final class DirectSQLiteConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private let lock = NSLock()

    /// Opens (or creates) the database at `path`.
    /// - Parameter path: The database file.
    /// - Throws: ``DirectSQLiteError`` if SQLite cannot open it.
    package init(path: String) throws {
        _ = Self.configureOnce
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_EXRESCODE
        var db: OpaquePointer?
        let rc = sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open"
            if let db { sqlite3_close(db) }
            throw DirectSQLiteError(code: rc, message: "\(message) (\(path))")
        }
        sqlite3_extended_result_codes(db, 1)
        handle = db
    }

    /// Process-wide settings applied before the first connection: no global memory statistics (the
    /// bundled SQLite's default; with the system library they put a mutex on every allocation).
    private static let configureOnce: Void = {
        _ = gatehouse_sqlite_disable_memstatus()
    }()

    deinit { close() }

    /// Finalises the cached statements and closes the connection (later statements fail with `SQLITE_MISUSE`).
    package func close() {
        lock.lock()
        defer { lock.unlock() }
        for statement in statements.values { sqlite3_finalize(statement) }
        statements.removeAll()
        if let handle { sqlite3_close_v2(handle) }
        handle = nil
    }

    /// How often SQLite re-prepared this connection's cached statements. A statement whose plan
    /// SQLite ties to its bound values is re-prepared on every run; the store's queries avoid that.
    package var reprepareCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return statements.values.reduce(0) { $0 + Int(sqlite3_stmt_status($1, SQLITE_STMTSTATUS_REPREPARE, 0)) }
    }

    private func error(_ rc: Int32) -> DirectSQLiteError {
        let message = handle.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "closed"
        return DirectSQLiteError(code: rc, message: message)
    }

    /// Runs one statement, calling `onRow` for each result row.
    /// - Parameters:
    ///   - sql: The statement (prepared once per connection and cached).
    ///   - binds: Its parameters, in order.
    ///   - onRow: Called for each result row.
    /// - Throws: ``DirectSQLiteError``, or what `onRow` throws.
    package func execute(_ sql: String, _ binds: [SQLiteValue], onRow: (SQLiteRawRow) throws -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else { throw DirectSQLiteError(code: SQLITE_MISUSE, message: "the connection is closed") }
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let rc = sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard rc == SQLITE_OK, let prepared else { throw error(rc) }
            statement = prepared
            if statements.count < 256 { statements[sql] = prepared }
        }
        let cached = statements[sql] == statement
        defer {
            sqlite3_reset(statement)
            sqlite3_clear_bindings(statement)
            if !cached { sqlite3_finalize(statement) }
        }
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let int): rc = sqlite3_bind_int64(statement, index, int)
            case .float(let double): rc = sqlite3_bind_double(statement, index, double)
            case .text(let text): rc = sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
            case .blob(let bytes):
                rc = bytes.withUnsafeBytes { sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), SQLITE_TRANSIENT) }
            case .null: rc = sqlite3_bind_null(statement, index)
            }
            guard rc == SQLITE_OK else { throw error(rc) }
        }
        var columns: [String]?
        while true {
            let rc = sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw error(rc) }
            let count = sqlite3_column_count(statement)
            if columns == nil {
                columns = (0..<count).map { String(cString: sqlite3_column_name(statement, $0)) }
            }
            var values: [SQLiteValue] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: values.append(.integer(sqlite3_column_int64(statement, column)))
                case SQLITE_FLOAT: values.append(.float(sqlite3_column_double(statement, column)))
                case SQLITE_TEXT:
                    let text = sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                    values.append(.text(text))
                case SQLITE_BLOB:
                    let length = Int(sqlite3_column_bytes(statement, column))
                    let bytes = sqlite3_column_blob(statement, column)
                    values.append(.blob(bytes.map { Array(UnsafeRawBufferPointer(start: $0, count: length)) } ?? []))
                default: values.append(.null)
                }
            }
            try onRow(SQLiteRawRow(columns: columns ?? [], values: values))
        }
    }
}

private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

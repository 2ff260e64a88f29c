import Foundation
import GatehouseCore
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO
import VaporCSQLite

/// A SQLite error with the engine's (extended) result code.
struct DirectSQLiteError: Error, CustomStringConvertible, Sendable {
    let code: Int32
    let message: String

    var primaryCode: Int32 { code & 0xFF }
    var isUniqueViolation: Bool { code == 2067 /* SQLITE_CONSTRAINT_UNIQUE */ || code == 1555 /* _PRIMARYKEY */ }
    var description: String { "SQLite error \(code): \(message)" }
}

/// One SQLite connection driven directly through the C API (the library vendored by sqlite-nio):
/// statements run in place, prepared once and cached, instead of a thread-pool round trip per
/// statement. The store gives a connection to one task at a time (see ``SQLiteBackend``), and every
/// statement is short: WAL mode, no fsync per commit, pages usually cached.
final class DirectSQLiteConnection: @unchecked Sendable {
    private var handle: OpaquePointer?
    private var statements: [String: OpaquePointer] = [:]
    private let lock = NSLock()

    init(path: String) throws {
        let flags = SQLITE_OPEN_CREATE | SQLITE_OPEN_READWRITE | SQLITE_OPEN_FULLMUTEX | SQLITE_OPEN_EXRESCODE
        var db: OpaquePointer?
        let rc = sqlite_nio_sqlite3_open_v2(path, &db, flags, nil)
        guard rc == SQLITE_OK, let db else {
            let message = db.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "cannot open"
            if let db { sqlite_nio_sqlite3_close(db) }
            throw DirectSQLiteError(code: rc, message: "\(message) (\(path))")
        }
        sqlite_nio_sqlite3_extended_result_codes(db, 1)
        handle = db
    }

    deinit { close() }

    func close() {
        lock.lock()
        defer { lock.unlock() }
        for statement in statements.values { sqlite_nio_sqlite3_finalize(statement) }
        statements.removeAll()
        if let handle { sqlite_nio_sqlite3_close_v2(handle) }
        handle = nil
    }

    /// How often SQLite re-prepared this connection's cached statements. A statement whose plan
    /// SQLite ties to its bound values is re-prepared on every run; the store's queries avoid that.
    var reprepareCount: Int {
        lock.lock()
        defer { lock.unlock() }
        return statements.values.reduce(0) { $0 + Int(sqlite_nio_sqlite3_stmt_status($1, SQLITE_STMTSTATUS_REPREPARE, 0)) }
    }

    private func error(_ rc: Int32) -> DirectSQLiteError {
        let message = handle.flatMap { sqlite_nio_sqlite3_errmsg($0) }.map { String(cString: $0) } ?? "closed"
        return DirectSQLiteError(code: rc, message: message)
    }

    /// Runs one statement, calling `onRow` for each result row.
    func execute(_ sql: String, _ binds: [SQLiteData], onRow: (DirectSQLiteRow) throws -> Void) throws {
        lock.lock()
        defer { lock.unlock() }
        guard let handle else { throw DirectSQLiteError(code: SQLITE_MISUSE, message: "the connection is closed") }
        let statement: OpaquePointer
        if let cached = statements[sql] {
            statement = cached
        } else {
            var prepared: OpaquePointer?
            let rc = sqlite_nio_sqlite3_prepare_v3(handle, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &prepared, nil)
            guard rc == SQLITE_OK, let prepared else { throw error(rc) }
            statement = prepared
            if statements.count < 256 { statements[sql] = prepared }
        }
        let cached = statements[sql] == statement
        defer {
            sqlite_nio_sqlite3_reset(statement)
            sqlite_nio_sqlite3_clear_bindings(statement)
            if !cached { sqlite_nio_sqlite3_finalize(statement) }
        }
        for (offset, value) in binds.enumerated() {
            let index = Int32(offset + 1)
            let rc: Int32
            switch value {
            case .integer(let int): rc = sqlite_nio_sqlite3_bind_int64(statement, index, Int64(int))
            case .float(let double): rc = sqlite_nio_sqlite3_bind_double(statement, index, double)
            case .text(let text): rc = sqlite_nio_sqlite3_bind_text64(statement, index, text, UInt64(text.utf8.count), SQLITE_TRANSIENT, UInt8(SQLITE_UTF8))
            case .blob(let buffer):
                rc = buffer.withUnsafeReadableBytes { sqlite_nio_sqlite3_bind_blob64(statement, index, $0.baseAddress, UInt64($0.count), SQLITE_TRANSIENT) }
            case .null: rc = sqlite_nio_sqlite3_bind_null(statement, index)
            }
            guard rc == SQLITE_OK else { throw error(rc) }
        }
        var columns: [String]?
        while true {
            let rc = sqlite_nio_sqlite3_step(statement)
            if rc == SQLITE_DONE { return }
            guard rc == SQLITE_ROW else { throw error(rc) }
            let count = sqlite_nio_sqlite3_column_count(statement)
            if columns == nil {
                columns = (0..<count).map { String(cString: sqlite_nio_sqlite3_column_name(statement, $0)) }
            }
            var values: [SQLiteData] = []
            values.reserveCapacity(Int(count))
            for column in 0..<count {
                switch sqlite_nio_sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: values.append(.integer(SQLiteInt64(sqlite_nio_sqlite3_column_int64(statement, column))))
                case SQLITE_FLOAT: values.append(.float(sqlite_nio_sqlite3_column_double(statement, column)))
                case SQLITE_TEXT:
                    let text = sqlite_nio_sqlite3_column_text(statement, column).map { String(cString: $0) } ?? ""
                    values.append(.text(text))
                case SQLITE_BLOB:
                    let length = Int(sqlite_nio_sqlite3_column_bytes(statement, column))
                    var buffer = ByteBufferAllocator().buffer(capacity: length)
                    if let bytes = sqlite_nio_sqlite3_column_blob(statement, column) {
                        buffer.writeBytes(UnsafeRawBufferPointer(start: bytes, count: length))
                    }
                    values.append(.blob(buffer))
                default: values.append(.null)
                }
            }
            try onRow(DirectSQLiteRow(columns: columns ?? [], values: values))
        }
    }
}

private let SQLITE_TRANSIENT = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// A result row.
struct DirectSQLiteRow: SQLRow {
    let columns: [String]
    let values: [SQLiteData]

    var allColumns: [String] { columns }

    func contains(column: String) -> Bool { columns.contains(column) }

    func value(_ column: String) throws -> SQLiteData {
        guard let index = columns.firstIndex(of: column) else {
            throw DecodingError.keyNotFound(SomeKey(column), .init(codingPath: [], debugDescription: "no column '\(column)'"))
        }
        return values[index]
    }

    func decodeNil(column: String) throws -> Bool { try value(column) == .null }

    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let data = try value(column)
        // The types the store reads, without the Codable machinery (this runs for every column).
        switch (data, type) {
        case (.text(let text), is String.Type): return text as! D
        case (.text(let text), is String?.Type): return Optional(text) as! D
        case (.null, is String?.Type): return String?.none as! D
        case (.integer(let int), is Int64.Type): return Int64(int) as! D
        case (.integer(let int), is Int64?.Type): return Optional(Int64(int)) as! D
        case (.null, is Int64?.Type): return Int64?.none as! D
        case (.integer(let int), is Int.Type): return Int(int) as! D
        case (.integer(let int), is Bool.Type): return (int != 0) as! D
        default: return try SQLiteDataDecoder().decode(D.self, from: data)
        }
    }

    struct SomeKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// SQLKit's view of a ``DirectSQLiteConnection``: the SQLite dialect, binds encoded with
/// SQLiteKit's encoder, statements executed in place.
struct DirectSQLiteDatabase: SQLDatabase {
    let connection: DirectSQLiteConnection
    let logger: Logger
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { SQLiteDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func run(_ query: any SQLExpression, _ onRow: (any SQLRow) throws -> Void) throws {
        let (sql, binds) = serialize(query)
        let values = try binds.map(Self.encode)
        try connection.execute(sql, values) { try onRow($0) }
    }

    /// The types the store binds, without the Codable machinery; anything else goes through SQLiteKit's encoder.
    static func encode(_ value: any Encodable & Sendable) throws -> SQLiteData {
        switch value {
        case let text as String: return .text(text)
        case let int as Int64: return .integer(SQLiteInt64(int))
        case let int as Int: return .integer(SQLiteInt64(int))
        case let flag as Bool: return .integer(flag ? 1 : 0)
        case let text as String?: return text.map(SQLiteData.text) ?? .null
        case let int as Int64?: return int.map { .integer(SQLiteInt64($0)) } ?? .null
        default: return try SQLiteDataEncoder().encode(value)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) -> EventLoopFuture<Void> {
        do {
            try run(query, onRow)
            return eventLoop.makeSucceededVoidFuture()
        } catch {
            return eventLoop.makeFailedFuture(error)
        }
    }

    func execute(sql query: any SQLExpression, _ onRow: @escaping @Sendable (any SQLRow) -> Void) async throws {
        try run(query, onRow)
    }
}

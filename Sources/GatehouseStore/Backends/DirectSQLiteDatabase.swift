import Foundation
import GatehouseSQLite
import Logging
import NIOCore
import NIOPosix
import SQLKit

/// A result row, as SQLKit reads it.
struct DirectSQLiteRow: SQLRow {
    let columns: [String]
    let values: [SQLiteValue]

    init(_ raw: SQLiteRawRow) {
        columns = raw.columns
        values = raw.values
    }

    var allColumns: [String] { columns }

    func contains(column: String) -> Bool { columns.contains(column) }

    func value(_ column: String) throws -> SQLiteValue {
        guard let index = columns.firstIndex(of: column) else {
            throw DecodingError.keyNotFound(SomeKey(column), .init(codingPath: [], debugDescription: "no column '\(column)'"))
        }
        return values[index]
    }

    func decodeNil(column: String) throws -> Bool { try value(column) == .null }

    /// The types the store reads (text, integers, booleans, reals, blobs and their optionals); any
    /// other type is a programming error, reported as a type mismatch.
    func decode<D: Decodable>(column: String, as type: D.Type) throws -> D {
        let data = try value(column)
        let decoded: Any? =
            switch (data, type) {
            case (.text(let text), is String.Type), (.text(let text), is String?.Type): text
            case (.integer(let int), is Int64.Type), (.integer(let int), is Int64?.Type): int
            case (.integer(let int), is Int.Type), (.integer(let int), is Int?.Type): Int(int)
            case (.integer(let int), is Bool.Type), (.integer(let int), is Bool?.Type): int != 0
            case (.float(let double), is Double.Type), (.float(let double), is Double?.Type): double
            case (.integer(let int), is Double.Type), (.integer(let int), is Double?.Type): Double(int)
            case (.blob(let bytes), is [UInt8].Type), (.blob(let bytes), is [UInt8]?.Type): bytes
            case (.null, is String?.Type): String?.none as Any
            case (.null, is Int64?.Type): Int64?.none as Any
            case (.null, is Int?.Type): Int?.none as Any
            case (.null, is Bool?.Type): Bool?.none as Any
            case (.null, is Double?.Type): Double?.none as Any
            case (.null, is [UInt8]?.Type): [UInt8]?.none as Any
            default: nil
            }
        guard let decoded, let value = decoded as? D else {
            throw DecodingError.typeMismatch(
                D.self,
                .init(codingPath: [SomeKey(column)], debugDescription: "column '\(column)' holds \(data), not \(D.self)")
            )
        }
        return value
    }

    struct SomeKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(_ string: String) { stringValue = string }
        init?(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}

/// SQLKit's view of a ``DirectSQLiteConnection``: the SQLite dialect, binds turned into SQLite
/// values, statements executed in place.
struct DirectSQLiteDatabase: SQLDatabase {
    let connection: DirectSQLiteConnection
    let logger: Logger
    var eventLoop: any EventLoop { MultiThreadedEventLoopGroup.singleton.any() }
    var dialect: any SQLDialect { SQLiteStatementDialect() }
    var queryLogLevel: Logger.Level? { nil }

    func run(_ query: any SQLExpression, _ onRow: (any SQLRow) throws -> Void) throws {
        let (sql, binds) = serialize(query)
        let values = try binds.map { try Self.encode($0) }
        try connection.execute(sql, values) { try onRow(DirectSQLiteRow($0)) }
    }

    /// The types the store binds (text, integers, booleans, reals, blobs, and `nil` of any of them);
    /// any other type is a programming error.
    static func encode(_ value: any Encodable) throws -> SQLiteValue {
        switch value {
        case let text as String: return .text(text)
        case let int as Int64: return .integer(int)
        case let int as Int: return .integer(Int64(int))
        case let flag as Bool: return .integer(flag ? 1 : 0)
        case let double as Double: return .float(double)
        case let bytes as [UInt8]: return .blob(bytes)
        default:
            let mirror = Mirror(reflecting: value)
            guard mirror.displayStyle == .optional else {
                throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "SQLite cannot bind \(type(of: value))"))
            }
            guard let wrapped = mirror.children.first?.value else { return .null }
            guard let encodable = wrapped as? any Encodable else {
                throw EncodingError.invalidValue(value, .init(codingPath: [], debugDescription: "SQLite cannot bind \(type(of: value))"))
            }
            return try encode(encodable)
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

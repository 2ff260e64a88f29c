import Foundation
import GatehouseSQLite
import Logging
import NIOCore
import NIOPosix
import SQLKit
import SQLiteKit
import SQLiteNIO

/// A result row, as SQLKit reads it.
struct DirectSQLiteRow: SQLRow {
    let columns: [String]
    let values: [SQLiteData]

    init(_ raw: SQLiteRawRow) {
        columns = raw.columns
        values = raw.values.map { value in
            switch value {
            case .integer(let int): .integer(SQLiteInt64(int))
            case .float(let double): .float(double)
            case .text(let text): .text(text)
            case .blob(let bytes): .blob(ByteBuffer(bytes: bytes))
            case .null: .null
            }
        }
    }

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
        let values = try binds.map { try Self.raw(Self.encode($0)) }
        try connection.execute(sql, values) { try onRow(DirectSQLiteRow($0)) }
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

    static func raw(_ data: SQLiteData) -> SQLiteValue {
        switch data {
        case .integer(let int): .integer(Int64(int))
        case .float(let double): .float(double)
        case .text(let text): .text(text)
        case .blob(let buffer): .blob(Array(buffer.readableBytesView))
        case .null: .null
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

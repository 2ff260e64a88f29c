import Foundation
import GatehouseCore
import SQLKit

/// The core's ``StoreTransaction`` over one SQL connection (inside a transaction for writes).
struct SQLTransaction: StoreTransaction {
    let db: any SQLDatabase
    let backend: any SQLBackend

    /// Runs a statement that may violate a unique constraint, reporting that as ``StoreConflict``.
    func insert(_ query: SQLQueryString, constraint: String) async throws {
        do {
            try await db.raw(query).run()
        } catch {
            if backend.isUniqueViolation(error) { throw StoreConflict(constraint: constraint) }
            throw error
        }
    }

    func all(_ query: SQLQueryString) async throws -> [any SQLRow] {
        try await db.raw(query).all()
    }

    func first(_ query: SQLQueryString) async throws -> (any SQLRow)? {
        try await db.raw(query).first()
    }
}

extension SQLRow {
    func string(_ column: String) throws -> String { try decode(column: column, as: String.self) }
    func optionalString(_ column: String) throws -> String? { try decode(column: column, as: String?.self) }
    func bool(_ column: String) throws -> Bool { try decode(column: column, as: Bool.self) }
    func int(_ column: String) throws -> Int { try decode(column: column, as: Int.self) }
    func date(_ column: String) throws -> Date { Date(epochSeconds: try decode(column: column, as: Int64.self)) }
    func optionalDate(_ column: String) throws -> Date? { try decode(column: column, as: Int64?.self).map(Date.init(epochSeconds:)) }
    func optionalMillisecondDate(_ column: String) throws -> Date? {
        try decode(column: column, as: Int64?.self).map(Date.init(epochMilliseconds:))
    }
}

/// A value SQLite stores or returns: its five storage classes.
package enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case float(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// One result row of ``DirectSQLiteConnection/execute(_:_:onRow:)``: column names and values, in order.
package struct SQLiteRawRow: Sendable {
    package let columns: [String]
    package let values: [SQLiteValue]

    package init(columns: [String], values: [SQLiteValue]) {
        self.columns = columns
        self.values = values
    }

    /// The value of `column`.
    /// - Parameter column: A column name of the result.
    /// - Returns: Its value.
    /// - Throws: ``DirectSQLiteError`` if the result has no such column.
    package func value(_ column: String) throws -> SQLiteValue {
        guard let index = columns.firstIndex(of: column) else {
            throw DirectSQLiteError(code: 1, message: "no column '\(column)'")
        }
        return values[index]
    }
}

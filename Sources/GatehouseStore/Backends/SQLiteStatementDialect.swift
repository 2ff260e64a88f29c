import SQLKit

/// How SQLKit writes statements for SQLite: the same choices as SQLiteKit's dialect, written here so
/// the server links one SQLite library (the system's), not also sqlite-nio's copy. The store's
/// statements are its own SQL with bound values; the dialect only places the binds (`?1`, `?2`, …)
/// and quotes identifiers. The system's SQLite is at least 3.40 on every supported platform, so
/// `RETURNING` (3.35) and upserts (3.24) are always there.
struct SQLiteStatementDialect: SQLDialect {
    var name: String { "sqlite" }
    var identifierQuote: any SQLExpression { SQLRaw(#"""#) }
    var literalStringQuote: any SQLExpression { SQLRaw("'") }
    func bindPlaceholder(at position: Int) -> any SQLExpression { SQLRaw("?\(position)") }
    func literalBoolean(_ value: Bool) -> any SQLExpression { SQLRaw(value ? "TRUE" : "FALSE") }
    var literalDefault: any SQLExpression { SQLLiteral.null }
    var supportsIfExists: Bool { true }
    var supportsDropBehavior: Bool { false }
    var supportsAutoIncrement: Bool { false }
    var autoIncrementClause: any SQLExpression { SQLRaw("AUTOINCREMENT") }
    var enumSyntax: SQLEnumSyntax { .unsupported }
    var alterTableSyntax: SQLAlterTableSyntax { .init(allowsBatch: false) }
    var upsertSyntax: SQLUpsertSyntax { .standard }
    var supportsReturning: Bool { true }
    var unionFeatures: SQLUnionFeatures { [.union, .unionAll, .intersect, .except] }
}

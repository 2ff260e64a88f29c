import Foundation

/// The audit log's rows.
public protocol AuditRepository: Sendable {
    /// Appends a row in the current transaction.
    /// - Parameter entry: The row.
    /// - Throws: A store error.
    func appendAudit(_ entry: AuditEntry) async throws
    /// A page of rows, newest first.
    /// - Parameter query: The filters and the cursor.
    /// - Returns: At most `query.limit` rows.
    /// - Throws: A store error.
    func auditEntries(_ query: AuditQuery) async throws -> [AuditEntry]
    /// Deletes the rows older than `cutoff`.
    /// - Parameter cutoff: The oldest time kept.
    /// - Returns: How many rows went.
    /// - Throws: A store error.
    func pruneAudit(before cutoff: Date) async throws -> Int
}

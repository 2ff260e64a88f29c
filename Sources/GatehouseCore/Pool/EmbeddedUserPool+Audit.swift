import Foundation

extension EmbeddedUserPool {
    /// Appends `entry` to the audit log and queues its webhook deliveries, both in `tx`: a receiver hears
    /// of a change exactly when it committed.
    /// - Parameters:
    ///   - entry: The audit row.
    ///   - email: The user's address, for the events that carry it.
    ///   - tx: The transaction of the change.
    /// - Throws: The store's error (which rolls the change back).
    func audit(_ entry: AuditEntry, email: String? = nil, in tx: any StoreTransaction) async throws {
        try await tx.appendAudit(entry)
        try await mail.enqueueWebhooks(for: entry, email: email, in: tx)
    }
}

import Foundation

extension EmbeddedUserPool {
    /// Appends `entry` to the audit log and queues its webhook deliveries, both in `tx`
    /// (``DeliveryEnqueuer/audit(_:email:in:)``).
    /// - Parameters:
    ///   - entry: The audit row.
    ///   - email: The user's address, for the events that carry it.
    ///   - tx: The transaction of the change.
    /// - Throws: The store's error (which rolls the change back).
    func audit(_ entry: AuditEntry, email: String? = nil, in tx: any StoreTransaction) async throws {
        try await mail.audit(entry, email: email, in: tx)
    }
}

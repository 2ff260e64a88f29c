import Foundation

/// The durable mail queue. Rows are claimed with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL), so
/// several instances on one database never send one message at the same time, and a message whose
/// sender died mid-delivery is claimed again once its lease runs out.
public protocol MailQueueRepository: Sendable {
    /// Adds a message (or a decoy) to the queue.
    func enqueueMail(_ mail: QueuedMail) async throws
    /// Claims up to `limit` due messages of `channels` (queued, due, lease free or run out) under
    /// `lease` until `leaseUntil`, oldest due first. Rows of other channels stay queued for an instance
    /// that can send them (during a rolling upgrade, an older instance leaves the newer channels alone).
    func claimDueMail(now: Date, lease: String, leaseUntil: Date, limit: Int, channels: [String]) async throws -> [QueuedMail]
    /// Records a delivery: state `sent`, body dropped. Returns false if the lease was lost meanwhile.
    func markMailSent(id: String, lease: String, at: Date) async throws -> Bool
    /// Records a failed attempt to retry at `nextAttemptAt`, releasing the lease.
    func rescheduleMail(id: String, lease: String, attempts: Int, nextAttemptAt: Date, at: Date, error: String) async throws -> Bool
    /// Gives up on a message: state `dead`, body dropped, the reason kept.
    func markMailDead(id: String, lease: String, attempts: Int, at: Date, error: String) async throws -> Bool
    /// One message, for tests and operators.
    func queuedMail(id: String) async throws -> QueuedMail?
    /// Messages waiting (queued, whether due or not) and dead-lettered ones, for metrics.
    func mailQueueCounts() async throws -> (queued: Int, dead: Int)
    /// When the earliest queued message is due, if any.
    func nextMailDue() async throws -> Date?
    /// Deletes sent, dead and decoy rows last touched before `before`; returns how many.
    func purgeMail(before: Date) async throws -> Int
}

import Foundation

/// The durable message queue (mail, SMS and webhooks, one channel each). Rows are claimed with a lease
/// (`FOR UPDATE SKIP LOCKED` on PostgreSQL), so several instances on one database never send one
/// message at the same time, and a message whose sender died mid-delivery is claimed again once its
/// lease runs out.
public protocol MessageQueueRepository: Sendable {
    /// Adds a message (or a decoy) to the queue.
    func enqueueMessage(_ message: QueuedMessage) async throws
    /// Claims up to `limit` due messages of `channels` (queued, due, lease free or run out) under
    /// `lease` until `leaseUntil`, oldest due first. Rows of other channels stay queued for an instance
    /// that can send them (during a rolling upgrade, an older instance leaves the newer channels alone).
    func claimDueMessages(now: Date, lease: String, leaseUntil: Date, limit: Int, channels: [String]) async throws -> [QueuedMessage]
    /// Records a delivery: state `sent`, body dropped. Returns false if the lease was lost meanwhile.
    func markMessageSent(id: String, lease: String, at: Date) async throws -> Bool
    /// Records a failed attempt to retry at `nextAttemptAt`, releasing the lease.
    func rescheduleMessage(id: String, lease: String, attempts: Int, nextAttemptAt: Date, at: Date, error: String) async throws -> Bool
    /// Gives up on a message: state `dead`, body dropped, the reason kept.
    func markMessageDead(id: String, lease: String, attempts: Int, at: Date, error: String) async throws -> Bool
    /// One message, for tests and operators.
    func queuedMessage(id: String) async throws -> QueuedMessage?
    /// Messages waiting (queued, whether due or not) and dead-lettered ones, for metrics.
    func messageQueueCounts() async throws -> (queued: Int, dead: Int)
    /// When the earliest queued message is due, if any.
    func nextMessageDue() async throws -> Date?
    /// Deletes sent, dead and decoy rows last touched before `before`; returns how many.
    func purgeMessages(before: Date) async throws -> Int
}

import Foundation

/// Rate-limit counters, keyed by bucket (a rule name and a keyed hash of the subject, never a clear
/// email or address), shared by every instance on the database.
public protocol RateLimitRepository: Sendable {
    func counter(bucket: String) async throws -> RateCounter?
    /// Adds one attempt, starting a new window when the current one is older than `window`.
    func incrementCounter(bucket: String, now: Date, window: TimeInterval) async throws -> RateCounter
    func setBlockedUntil(bucket: String, until: Date) async throws
    /// Counts one attempt unless the bucket is blocked at `now` (starting a new window when the
    /// current one is older than `window`), in one atomic statement.
    /// - Returns: The counter after counting, or `nil` when the bucket is blocked (nothing counted).
    func reserveAttempt(bucket: String, now: Date, window: TimeInterval) async throws -> RateCounter?
    /// Takes back one attempt counted in the window that started at `windowStart`, and the block
    /// `blockedUntil` that attempt set, if it is still the bucket's block.
    func releaseAttempt(bucket: String, windowStart: Date, blockedUntil: Date?) async throws
    func deleteCounter(bucket: String) async throws
}

import Foundation

/// One refresh, shared by every caller holding the refresh token it presents, that no caller owns.
///
/// Callers wait for it cancellably: a cancelled caller stops waiting at once (its call throws
/// `CancellationError`, which the client reports as `.transport(URLError(.cancelled))`) while the others keep
/// waiting. When every caller has stopped waiting before the refresh began (it is still waiting for the
/// ``RefreshCoordinator``'s lock), the refresh is abandoned: its task is cancelled, which ends the lock wait, and
/// nothing is sent. Once it has begun it is never cancelled, as its answer holds the rotated refresh token.
final class SharedRefresh: @unchecked Sendable {
    private let lock = NSLock()
    private var task: Task<Void, Never>?
    private var outcome: Result<Session, any Error>?
    /// Callers that joined and have not stopped waiting (by cancellation) yet.
    private var members = 0
    private var waiting: [UUID: CheckedContinuation<Session, any Error>] = [:]
    private var left: Set<UUID> = []
    private var began = false
    private var abandoned = false

    /// Starts `refresh` in a task of its own (not the caller's, so no caller's cancellation reaches it). The
    /// refresh calls ``begin()`` once it may send, and stops when that returns `false`.
    ///
    /// - Parameter refresh: The refresh, given this object.
    init(_ refresh: @escaping @Sendable (SharedRefresh) async throws -> Session) {
        let task = Task { [self] in
            let result: Result<Session, any Error>
            do {
                result = .success(try await refresh(self))
            } catch {
                result = .failure(error)
            }
            finish(result)
        }
        lock.withLock { self.task = task }
    }

    /// Adds a caller, unless the refresh was abandoned (then the caller must start another one).
    ///
    /// - Returns: Whether the caller joined; each caller that joined must then call ``value()`` once.
    func join() -> Bool {
        lock.withLock {
            guard !abandoned else { return false }
            members += 1
            return true
        }
    }

    /// Marks the refresh as begun (it holds the lock and is about to send), so it is no longer abandoned.
    ///
    /// - Returns: `false` when every caller already stopped waiting: then the refresh must not begin.
    func begin() -> Bool {
        lock.withLock {
            guard !abandoned else { return false }
            began = true
            return true
        }
    }

    /// The refresh's outcome, or `CancellationError` as soon as the calling task is cancelled.
    ///
    /// - Returns: The refreshed session.
    /// - Throws: What the refresh threw, or `CancellationError`.
    func value() async throws -> Session {
        let id = UUID()
        return try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let now: Result<Session, any Error>? = lock.withLock {
                    if let outcome { return outcome }
                    if left.contains(id) || Task.isCancelled { return .failure(CancellationError()) }
                    waiting[id] = continuation
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            leave(id)
        }
    }

    /// A caller stopped waiting: resume it with `CancellationError`, and abandon the refresh when it was the
    /// last caller and the refresh has not begun.
    private func leave(_ id: UUID) {
        let (continuation, abandon): (CheckedContinuation<Session, any Error>?, Task<Void, Never>?) = lock.withLock {
            guard outcome == nil, left.insert(id).inserted else { return (nil, nil) }
            members -= 1
            let continuation = waiting.removeValue(forKey: id)
            guard members == 0, !began else { return (continuation, nil) }
            abandoned = true
            return (continuation, task)
        }
        continuation?.resume(throwing: CancellationError())
        abandon?.cancel()
    }

    private func finish(_ result: Result<Session, any Error>) {
        let resumed: [CheckedContinuation<Session, any Error>] = lock.withLock {
            outcome = result
            defer { waiting = [:] }
            return Array(waiting.values)
        }
        for continuation in resumed { continuation.resume(with: result) }
    }
}

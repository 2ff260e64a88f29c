import Foundation

/// A checked continuation that is resumed at most once; later resumptions are ignored instead of trapping.
/// `ASWebAuthenticationSession` may call its completion handler even after `start()` returned `false`, which
/// the caller also reports.
final class ResumeOnce<T: Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var continuation: CheckedContinuation<T, any Error>?

    init(_ continuation: CheckedContinuation<T, any Error>) { self.continuation = continuation }

    /// Resumes the continuation unless it was resumed already.
    ///
    /// - Parameter result: What the awaiting caller gets.
    /// - Returns: Whether this call resumed it (`false`: an earlier one did, and `result` is dropped).
    @discardableResult
    func resume(with result: Result<T, any Error>) -> Bool {
        let pending: CheckedContinuation<T, any Error>? = lock.withLock {
            defer { continuation = nil }
            return continuation
        }
        guard let pending else { return false }
        pending.resume(with: result)
        return true
    }
}

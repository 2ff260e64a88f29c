import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Lets one refresh run at a time across every client that shares a ``TokenStore``, in this process and
/// others (an app, its widget and its extensions in one Keychain access group). Give each client the same
/// coordinator (``FileRefreshCoordinator`` on a file in the shared container).
public protocol RefreshCoordinator: Sendable {
    /// Runs `body` while no other holder of the same coordination runs theirs.
    ///
    /// The client also writes the store of a sign-in or sign-out inside it.
    ///
    /// - Parameter body: The refresh; the client re-reads the store first thing inside it.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or an error of the coordinator's own before `body` ran (never after).
    func withExclusiveRefresh<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T
}

/// Why a ``FileRefreshCoordinator`` did not run the refresh.
public enum RefreshCoordinatorError: Error, Sendable, Equatable {
    /// Another holder kept the lock for longer than ``FileRefreshCoordinator/timeout``; nothing was sent and the
    /// session is kept, so try again later.
    case timedOut
}

/// A ``RefreshCoordinator`` on an advisory file lock (`flock`): processes and clients that name the same file
/// refresh one at a time. Put the file in the app group's container, e.g.
/// `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`.
///
/// The lock is held only for one refresh round trip (and for the store writes of a sign-in or sign-out), and
/// waiting for it is bounded by ``timeout`` and ends when the task is cancelled; no thread blocks on it.
/// iOS terminates an app that is suspended while it holds a file lock in an app group container
/// (`0xdead10cc`), so refresh while in the foreground, or wrap work that may refresh in a background-execution
/// assertion: `UIApplication.beginBackgroundTask(expirationHandler:)` in an app, or
/// `ProcessInfo.performExpiringActivity(withReason:using:)` in an extension.
public struct FileRefreshCoordinator: RefreshCoordinator {
    /// The lock file; created (mode 0600) when missing. Its content is never read.
    public let url: URL
    /// How long to wait for another holder of the lock before giving up with ``RefreshCoordinatorError/timedOut``.
    public let timeout: TimeInterval

    /// A coordinator on the lock file at `url`.
    ///
    /// - Parameters:
    ///   - url: A file every cooperating process can open, in a directory that exists.
    ///   - timeout: The longest wait for the lock, in seconds (30 by default; a refresh round trip is far shorter).
    public init(url: URL, timeout: TimeInterval = 30) {
        self.url = url
        self.timeout = timeout
    }

    /// Takes the file lock (polling without blocking a thread), runs `body`, and releases it.
    ///
    /// - Parameter body: The refresh.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw; without running `body`: ``RefreshCoordinatorError/timedOut`` after
    ///   ``timeout``, `CancellationError` when the task is cancelled while waiting, or a `CocoaError` when the
    ///   lock file cannot be opened or locked.
    public func withExclusiveRefresh<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Self.failure(errno) }
        defer { close(descriptor) }
        try await lock(descriptor)
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }

    /// Tries the lock without blocking until it is taken, the task is cancelled, or ``timeout`` passes.
    private func lock(_ descriptor: Int32) async throws {
        let deadline = Date().addingTimeInterval(timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            let code = errno
            guard code == EWOULDBLOCK || code == EINTR else { throw Self.failure(code) }
            try Task.checkCancellation()
            guard Date() < deadline else { throw RefreshCoordinatorError.timedOut }
            try await Task.sleep(nanoseconds: 10_000_000)  // a poll interval: another holder's round trip takes far longer
        }
    }

    private static func failure(_ code: Int32) -> CocoaError {
        CocoaError(.fileWriteUnknown, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code))])
    }
}

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

/// A ``RefreshCoordinator`` on an advisory file lock (`flock`): processes and clients that name the same file
/// refresh one at a time. Put the file in the app group's container, e.g.
/// `FileManager.default.containerURL(forSecurityApplicationGroupIdentifier:)`.
public struct FileRefreshCoordinator: RefreshCoordinator {
    /// The lock file; created (mode 0600) when missing. Its content is never read.
    public let url: URL

    /// A coordinator on the lock file at `url`.
    ///
    /// - Parameter url: A file every cooperating process can open, in a directory that exists.
    public init(url: URL) { self.url = url }

    /// Takes the file lock (waiting off the cooperative thread pool), runs `body`, and releases it.
    ///
    /// - Parameter body: The refresh.
    /// - Returns: What `body` returned.
    /// - Throws: What `body` threw, or a `CocoaError` when the lock file cannot be opened.
    public func withExclusiveRefresh<T: Sendable>(_ body: @Sendable () async throws -> T) async throws -> T {
        let descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(errno))])
        }
        defer { close(descriptor) }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            // flock blocks until the holder releases; a plain thread keeps the wait off Swift's executors.
            Thread.detachNewThread {
                while flock(descriptor, LOCK_EX) != 0, errno == EINTR {}
                continuation.resume()
            }
        }
        defer { flock(descriptor, LOCK_UN) }
        return try await body()
    }
}

import Foundation
import Testing

@testable import Gatehouse

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The file lock's wait is bounded and cancellable (review of issue 15, finding 5): another process holding the
/// lock forever must not hang a refresh.
@Suite("FileRefreshCoordinator: a bounded, cancellable wait", .timeLimit(.minutes(1)))
struct FileRefreshCoordinatorTests {
    /// A lock file in a fresh directory, locked by another open file description (as another process would).
    final class HeldLock {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gatehouse-lock-\(UUID().uuidString)")
        var url: URL { directory.appendingPathComponent("refresh.lock") }
        private var descriptor: Int32 = -1

        init() throws {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            descriptor = open(url.path, O_CREAT | O_RDWR | O_CLOEXEC, 0o600)
            #expect(descriptor >= 0 && flock(descriptor, LOCK_EX) == 0)
        }

        func release() { flock(descriptor, LOCK_UN) }

        deinit {
            close(descriptor)
            try? FileManager.default.removeItem(at: directory)
        }
    }

    @Test func aLockHeldTooLongTimesOutWithoutRunningTheBody() async throws {
        let held = try HeldLock()
        let coordinator = FileRefreshCoordinator(url: held.url, timeout: 0.2)
        await #expect(throws: RefreshCoordinatorError.timedOut) {
            try await coordinator.withExclusiveRefresh { Issue.record("ran without the lock") }
        }
        held.release()
        #expect(try await coordinator.withExclusiveRefresh { 7 } == 7)
    }

    @Test func aClientWhoseLockWaitTimesOutKeepsTheSession() async throws {
        let held = try HeldLock()
        let transport = SharedStoreTests.rotatingServer()
        let client = SharedStoreTests().client(
            transport,
            InMemoryTokenStore(SharedStoreTests.expiring),
            FileRefreshCoordinator(url: held.url, timeout: 0.2)
        )
        await expectError({ $0.urlErrorCode == .timedOut }, { _ = try await client.validAccessToken() })
        #expect(client.currentSession == SharedStoreTests.expiring && transport.requests.isEmpty)
    }

    @Test func aCancelledWaitStopsAtOnce() async throws {
        let held = try HeldLock()
        let coordinator = FileRefreshCoordinator(url: held.url, timeout: 600)
        let waiting = Task { try await coordinator.withExclusiveRefresh { 1 } }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
    }
}

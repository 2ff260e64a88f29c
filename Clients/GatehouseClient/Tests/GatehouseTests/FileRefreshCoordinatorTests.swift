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

    /// A client's refresh waiting for a lock another process holds: cancelling the caller ends the call at once
    /// (not after the coordinator's timeout), with the SDK's cancellation error, and the abandoned wait ends too.
    @Test func aCancelledCallerStopsWaitingForTheLockAtOnce() async throws {
        let held = try HeldLock()
        let transport = SharedStoreTests.rotatingServer()
        let client = SharedStoreTests().client(
            transport,
            InMemoryTokenStore(SharedStoreTests.expiring),
            FileRefreshCoordinator(url: held.url, timeout: 10)
        )
        let call = Task { try await client.validAccessToken() }
        while await client.refreshing == nil { await Task.yield() }  // the refresh is waiting for the lock
        let cancelled = Date()
        call.cancel()
        await expectError({ $0.isCancelled }, { _ = try await call.value })
        let waited = Date().timeIntervalSince(cancelled)
        // Before the fix the call waited out the lock's whole timeout (10 s here); a loaded machine may
        // take a few hundred milliseconds to schedule the cancellation.
        #expect(waited < 2, "the cancelled call returned after \(waited) s")
        let deadline = Date().addingTimeInterval(2)
        while await client.refreshing != nil, Date() < deadline { try await Task.sleep(nanoseconds: 10_000_000) }
        #expect(await client.refreshing == nil, "nobody waits any more, so the lock wait was given up")
        held.release()
        #expect(try await client.validAccessToken() == "access-2")
        #expect(transport.requests(to: "/auth/refresh").count == 1, "the abandoned wait sent nothing")
        #expect(client.currentSession?.refreshToken == "refresh-2")
    }

    /// Cancelling one of two callers sharing a refresh ends that call only: the other still gets the refresh.
    @Test func aCancelledCallerLeavesTheSharedRefreshToTheOthers() async throws {
        let held = try HeldLock()
        let transport = SharedStoreTests.rotatingServer()
        let client = SharedStoreTests().client(
            transport,
            InMemoryTokenStore(SharedStoreTests.expiring),
            FileRefreshCoordinator(url: held.url, timeout: 10)
        )
        let kept = Task { try await client.validAccessToken() }
        while await client.refreshing == nil { await Task.yield() }  // kept waits for the lock
        let cancelled = Task { try await client.validAccessToken() }
        cancelled.cancel()
        await expectError({ $0.isCancelled }, { _ = try await cancelled.value })
        held.release()
        #expect(try await kept.value == "access-2")
        #expect(transport.requests(to: "/auth/refresh").count == 1)
    }
}

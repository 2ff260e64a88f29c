import Foundation

@testable import Gatehouse

/// A store that fails on demand, as the Keychain does before the first unlock after a reboot.
final class FlakyStore: TokenStore, @unchecked Sendable {
    struct Refused: Error {}
    private let lock = NSLock()
    private var session: Session?
    private var failing: (load: Bool, save: Bool, clear: Bool) = (false, false, false)
    private var saveCount = 0

    init(_ session: Session? = nil) { self.session = session }

    func fail(load: Bool = false, save: Bool = false, clear: Bool = false) { lock.withLock { failing = (load, save, clear) } }
    var stored: Session? { lock.withLock { session } }
    var saves: Int { lock.withLock { saveCount } }

    func load() throws -> Session? {
        try lock.withLock {
            if failing.load { throw Refused() }
            return session
        }
    }

    func save(_ session: Session) throws {
        try lock.withLock {
            saveCount += 1
            if failing.save { throw Refused() }
            self.session = session
        }
    }

    func clear() throws {
        try lock.withLock {
            if failing.clear { throw Refused() }
            session = nil
        }
    }
}

/// A one-way gate a stub transport waits on; it opens when told to, or after `failsafe` seconds so a
/// broken test fails instead of hanging (the deadline bounds only a failure, never the order).
final class Gate: @unchecked Sendable {
    private let lock = NSLock()
    private var open = false
    private var waiters: [CheckedContinuation<Void, Never>] = []

    init(failsafe seconds: UInt64 = 5) {
        Task { [weak self] in
            try? await Task.sleep(nanoseconds: seconds * 1_000_000_000)
            self?.release()
        }
    }

    func release() {
        let waiting = lock.withLock {
            open = true
            defer { waiters = [] }
            return waiters
        }
        for waiter in waiting { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = lock.withLock {
                if open { return true }
                waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

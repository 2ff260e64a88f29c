import Foundation

@testable import GatehouseClient

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

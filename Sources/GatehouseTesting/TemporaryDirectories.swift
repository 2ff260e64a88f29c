import Foundation
import GatehouseInfrastructure

/// Directories removed when the test process exits: those of apps kept running for a whole suite
/// (``SharedApps``), which no test's end may remove.
public enum TemporaryDirectories {
    private static let pending = LockedBox<[URL]>([])
    private static let registered = LockedBox(false)

    /// Removes `directory` when the process exits.
    /// - Parameter directory: A directory the process made.
    public static func removeAtExit(_ directory: URL) {
        pending.withLock { $0.append(directory) }
        let first = registered.withLock { registered in
            defer { registered = true }
            return !registered
        }
        if first { atexit { TemporaryDirectories.removeAll() } }
    }

    private static func removeAll() {
        for directory in pending.withLock({ $0 }) { try? FileManager.default.removeItem(at: directory) }
    }
}

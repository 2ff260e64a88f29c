import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// The development outboxes' directory (`<data dir>/outbox/` for mail, `<data dir>/sms/` for texts):
/// owner-only, each message one file written whole or not at all.
public struct OutboxDirectory: Sendable {
    /// The directory (mode 0700).
    public let url: URL

    /// An outbox at `url`; nothing touches the file system until ``create()``.
    /// - Parameter url: The directory.
    public init(_ url: URL) {
        self.url = url
    }

    /// Creates the directory (owner-only) if it is missing.
    /// - Throws: The file system's error when it cannot be created.
    public func create() throws {
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes `contents` as `name` (mode 0600) through a hidden temporary file and a rename, so a reader
    /// never sees half a message; writing the same name again (a retry after a crash) replaces the file.
    /// - Parameters:
    ///   - contents: The message.
    ///   - name: The file's name in the directory.
    /// - Throws: ``DeliveryError`` (transient) when the file cannot be written or moved into place.
    public func write(_ contents: Data, as name: String) throws {
        let temporary = url.appendingPathComponent(".\(name).tmp")
        let target = url.appendingPathComponent(name)
        guard FileManager.default.createFile(atPath: temporary.path, contents: contents, attributes: [.posixPermissions: 0o600]) else {
            throw DeliveryError(.transient, "could not write to the outbox at \(url.path)")
        }
        guard rename(temporary.path, target.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw DeliveryError(.transient, "could not move a message into the outbox at \(url.path)")
        }
    }

    /// Checks that the directory exists and is writable.
    /// - Throws: ``DeliveryError`` (permanent) when it is not.
    public func check() throws {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory.boolValue,
            FileManager.default.isWritableFile(atPath: url.path)
        else {
            throw DeliveryError(.permanent, "the outbox \(url.path) is missing or not writable")
        }
    }
}

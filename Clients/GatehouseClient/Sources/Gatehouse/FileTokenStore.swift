import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Keeps the session in a JSON file readable by its owner only (mode 0600), written atomically.
/// For Linux and command-line tools; on Apple platforms prefer ``KeychainTokenStore``.
public struct FileTokenStore: TokenStore {
    /// The file holding the session.
    public let url: URL

    /// A store keeping the session at `url`; its directory is created (mode 0700) on the first save.
    ///
    /// - Parameter url: A file URL in a directory only this user can read, e.g. Application Support.
    public init(url: URL) { self.url = url }

    /// A store for the session of one server and app client, in `directory`: the file is named after
    /// ``GatehouseClient/Configuration/storeKey`` (hashed), so staging and production never share a session.
    ///
    /// - Parameters:
    ///   - directory: A directory only this user can read, e.g. Application Support.
    ///   - configuration: The client's configuration (its base URL and client id name the file).
    public init(directory: URL, for configuration: GatehouseClient.Configuration) {
        let name = SHA256.hex(SHA256.hash(Array(configuration.storeKey.utf8))).prefix(32)
        self.url = directory.appendingPathComponent("gatehouse-session-\(name).json")
    }

    /// Reads the session from the file.
    ///
    /// - Returns: The session, or `nil` when the file does not exist.
    /// - Throws: When the file exists but cannot be read or is not a session (a `DecodingError`).
    public func load() throws -> Session? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        return try Self.decoder.decode(Session.self, from: Data(contentsOf: url))
    }

    /// Writes the session to a new 0600 file and renames it over the old one, so a reader sees the
    /// old session or the new one, never half of either.
    ///
    /// - Parameter session: The session to keep.
    /// - Throws: When the directory or the file cannot be created, or the rename fails (a `CocoaError`).
    public func save(_ session: Session) throws {
        let directory = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString)")
        // Created 0600 before any byte is written, then moved into place.
        guard
            FileManager.default.createFile(
                atPath: temporary.path,
                contents: try Self.encoder.encode(session),
                attributes: [.posixPermissions: 0o600]
            )
        else {
            throw CocoaError(.fileWriteUnknown)
        }
        // rename(2) replaces the old file atomically: a reader sees the old session or the new one.
        guard rename(temporary.path, url.path) == 0 else {
            let code = errno
            try? FileManager.default.removeItem(at: temporary)
            throw CocoaError(.fileWriteUnknown, userInfo: [NSUnderlyingErrorKey: NSError(domain: NSPOSIXErrorDomain, code: Int(code))])
        }
    }

    /// Deletes the file, if there is one.
    ///
    /// - Throws: When the file exists and cannot be removed.
    public func clear() throws {
        if FileManager.default.fileExists(atPath: url.path) { try FileManager.default.removeItem(at: url) }
    }

    static let encoder: JSONEncoder = {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        return encoder
    }()
    static let decoder: JSONDecoder = {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        return decoder
    }()
}

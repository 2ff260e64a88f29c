import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
#if canImport(Security)
import Security
#endif

/// Where the session is kept between launches.
///
/// The client calls ``load()`` once, on first use, and then ``save(_:)`` after every sign-in and refresh
/// (the refresh token rotates, so a store that drops a save loses the session) and ``clear()`` on sign-out,
/// deletion or an expired session. Implement it to keep the session somewhere the built-in stores do not.
public protocol TokenStore: Sendable {
    /// The stored session.
    ///
    /// - Returns: The session, or `nil` when none is stored.
    /// - Throws: When the storage cannot be read; the client passes the error on to its caller.
    func load() throws -> Session?
    /// Replaces the stored session.
    ///
    /// - Parameter session: The session to keep.
    /// - Throws: When the storage cannot be written. The client keeps the new session in memory regardless
    ///   (a refresh token the server has rotated must not be lost), writes it again before its next use, and
    ///   reports ``GatehouseError/storage(_:)`` from the sign-in or ``GatehouseClient/refresh()`` that made it.
    func save(_ session: Session) throws
    /// Removes the stored session; removing none is not an error.
    ///
    /// - Throws: When the storage cannot be changed.
    func clear() throws
}

/// Keeps the session in memory only (tests, or apps that want users to sign in every launch).
public final class InMemoryTokenStore: TokenStore, @unchecked Sendable {
    private let lock = NSLock()
    private var session: Session?

    /// A store holding `session` to begin with.
    ///
    /// - Parameter session: The session to start from; `nil` (the default) for none.
    public init(_ session: Session? = nil) { self.session = session }

    /// The session held in memory.
    ///
    /// - Returns: The session, or `nil` when none is held.
    /// - Throws: Never; the signature is the protocol's.
    public func load() throws -> Session? { lock.withLock { session } }
    /// Holds `session` in memory.
    ///
    /// - Parameter session: The session to keep.
    /// - Throws: Never; the signature is the protocol's.
    public func save(_ session: Session) throws { lock.withLock { self.session = session } }
    /// Forgets the session.
    ///
    /// - Throws: Never; the signature is the protocol's.
    public func clear() throws { lock.withLock { session = nil } }
}

/// Keeps the session in a JSON file readable by its owner only (mode 0600), written atomically.
/// For Linux and command-line tools; on Apple platforms prefer ``KeychainTokenStore``.
public struct FileTokenStore: TokenStore {
    /// The file holding the session.
    public let url: URL

    /// A store keeping the session at `url`; its directory is created (mode 0700) on the first save.
    ///
    /// - Parameter url: A file URL in a directory only this user can read, e.g. Application Support.
    public init(url: URL) { self.url = url }

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

#if canImport(Security)
/// Keeps the session in the Keychain, readable after the first unlock (so background refresh works)
/// and never migrated to another device.
public struct KeychainTokenStore: TokenStore {
    /// The Keychain item's service (`kSecAttrService`); the app's bundle identifier by default.
    public let service: String
    /// The Keychain item's account (`kSecAttrAccount`); `session` by default.
    public let account: String
    /// An access group shared with app extensions, if any.
    public let accessGroup: String?

    /// A store for one generic-password item.
    ///
    /// - Parameters:
    ///   - service: The item's service; the app's bundle identifier by default.
    ///   - account: The item's account; give each Gatehouse server its own when an app talks to several.
    ///   - accessGroup: A Keychain access group shared with app extensions, or `nil` for the app alone.
    public init(service: String = Bundle.main.bundleIdentifier ?? "Gatehouse", account: String = "session", accessGroup: String? = nil) {
        self.service = service
        self.account = account
        self.accessGroup = accessGroup
    }

    private var query: [String: Any] {
        var query: [String: Any] = [
            kSecClass as String: kSecClassGenericPassword, kSecAttrService as String: service, kSecAttrAccount as String: account,
        ]
        if let accessGroup { query[kSecAttrAccessGroup as String] = accessGroup }
        return query
    }

    /// Reads the session from the Keychain.
    ///
    /// - Returns: The session, or `nil` when there is no item.
    /// - Throws: ``KeychainError`` when the Keychain refuses (for instance before the first unlock after a
    ///   reboot), or a `DecodingError` when the item is not a session.
    public func load() throws -> Session? {
        var query = self.query
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var item: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &item)
        if status == errSecItemNotFound { return nil }
        guard status == errSecSuccess, let data = item as? Data else { throw KeychainError(status: status) }
        return try FileTokenStore.decoder.decode(Session.self, from: data)
    }

    /// Updates the item, or adds it when there is none.
    ///
    /// - Parameter session: The session to keep.
    /// - Throws: ``KeychainError`` when the Keychain refuses the write.
    public func save(_ session: Session) throws {
        let data = try FileTokenStore.encoder.encode(session)
        let attributes: [String: Any] = [
            kSecValueData as String: data, kSecAttrAccessible as String: kSecAttrAccessibleAfterFirstUnlockThisDeviceOnly,
        ]
        var status = SecItemUpdate(query as CFDictionary, attributes as CFDictionary)
        if status == errSecItemNotFound {
            status = SecItemAdd(query.merging(attributes) { $1 } as CFDictionary, nil)
        }
        guard status == errSecSuccess else { throw KeychainError(status: status) }
    }

    /// Deletes the item; a missing item is not an error.
    ///
    /// - Throws: ``KeychainError`` when the Keychain refuses the deletion.
    public func clear() throws {
        let status = SecItemDelete(query as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}

/// A Keychain call failed with `status` (an `OSStatus`).
public struct KeychainError: Error, Sendable, Equatable {
    /// The `OSStatus` the Keychain returned (see `SecCopyErrorMessageString`).
    public let status: Int32
}
#endif

import Foundation

#if canImport(Security)
import Security

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

    /// A store for the session of one server and app client: the item's account is
    /// ``GatehouseClient/Configuration/storeKey``, so staging and production never share a session.
    /// A session stored by earlier SDK versions under the account `session` is moved over on first read.
    ///
    /// - Parameters:
    ///   - configuration: The client's configuration (its base URL and client id name the item).
    ///   - service: The item's service; the app's bundle identifier by default.
    ///   - accessGroup: A Keychain access group shared with app extensions, or `nil` for the app alone.
    public init(
        for configuration: GatehouseClient.Configuration,
        service: String = Bundle.main.bundleIdentifier ?? "Gatehouse",
        accessGroup: String? = nil
    ) {
        self.init(service: service, account: configuration.storeKey, accessGroup: accessGroup)
        self.legacyAccount = "session"
    }

    /// An account to move a session from on first read (the 0.x default, `session`).
    var legacyAccount: String?

    private var query: [String: Any] { query(account: account) }

    private func query(account: String) -> [String: Any] {
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
        if status == errSecItemNotFound { return try migrateLegacy() }
        guard status == errSecSuccess, let data = item as? Data else { throw KeychainError(status: status) }
        return try FileTokenStore.decoder.decode(Session.self, from: data)
    }

    private func migrateLegacy() throws -> Session? {
        guard let legacyAccount, legacyAccount != account else { return nil }
        let legacy = KeychainTokenStore(service: service, account: legacyAccount, accessGroup: accessGroup)
        guard let session = try legacy.load() else { return nil }
        try save(session)
        try? legacy.clear()
        return session
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

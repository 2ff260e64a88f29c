import Foundation

#if canImport(Security)
import Security

/// Keeps the session in the Keychain, readable after the first unlock (so background refresh works)
/// and never migrated to another device.
///
/// For the app alone, ``init(for:service:accessGroup:)``. To share the session with the app's widgets and
/// extensions, every target must name the same item, so use ``shared(accessGroup:service:for:)`` in each of them:
/// it takes the service explicitly (the default, the bundle identifier, is another one in each extension) and keeps
/// the item in the data protection keychain, without which macOS ignores the access group.
public struct KeychainTokenStore: TokenStore {
    /// The item: its service, account, access group and keychain.
    let item: KeychainItem
    /// Items to move a session from on first read, when ``item`` holds none.
    var legacy: [KeychainItem] = []

    /// The Keychain item's service (`kSecAttrService`); the app's bundle identifier by default.
    public var service: String { item.service }
    /// The Keychain item's account (`kSecAttrAccount`); `session` by default.
    public var account: String { item.account }
    /// An access group shared with app extensions, if any.
    public var accessGroup: String? { item.accessGroup }
    /// Whether the item is in the data protection keychain on macOS (`kSecUseDataProtectionKeychain`), as an item
    /// in an access group must be; `true` for ``shared(accessGroup:service:for:)``. Other platforms have no other.
    public var usesDataProtectionKeychain: Bool { item.usesDataProtectionKeychain }

    /// A store for one generic-password item.
    ///
    /// - Parameters:
    ///   - service: The item's service; the app's bundle identifier by default.
    ///   - account: The item's account; give each Gatehouse server its own when an app talks to several.
    ///   - accessGroup: A Keychain access group, or `nil` for the app alone. To share the session with
    ///     extensions use ``shared(accessGroup:service:for:)`` instead: the default service differs in each.
    public init(service: String = Bundle.main.bundleIdentifier ?? "Gatehouse", account: String = "session", accessGroup: String? = nil) {
        self.init(item: KeychainItem(service: service, account: account, accessGroup: accessGroup))
    }

    /// A store for the session of one server and app client, for the app alone: the item's account is
    /// ``GatehouseClient/Configuration/storeKey``, so staging and production never share a session.
    /// A session stored by earlier SDK versions under the account `session` is moved over on first read.
    ///
    /// - Parameters:
    ///   - configuration: The client's configuration (its base URL and client id name the item).
    ///   - service: The item's service; the app's bundle identifier by default.
    ///   - accessGroup: A Keychain access group, or `nil` for the app alone. To share the session with
    ///     extensions use ``shared(accessGroup:service:for:)`` instead: the default service differs in each.
    public init(
        for configuration: GatehouseClient.Configuration,
        service: String = Bundle.main.bundleIdentifier ?? "Gatehouse",
        accessGroup: String? = nil
    ) {
        let layout = KeychainItem.appOnly(for: configuration, service: service, accessGroup: accessGroup)
        self.init(item: layout.item, legacy: layout.legacy)
    }

    /// A store for a session shared by an app and its widgets and extensions: call it with the same arguments
    /// in every target, each of which lists `accessGroup` in its Keychain Sharing entitlement.
    ///
    /// The item is named by `accessGroup`, `service` and the server and client
    /// (``GatehouseClient/Configuration/storeKey``) alone, never by the bundle identifier, and lives in the data
    /// protection keychain (required on macOS for access groups). A session the app kept under the earlier recipe
    /// (`KeychainTokenStore(for:accessGroup:)`, whose service was the app's bundle identifier) is moved over on
    /// first read. Give every client sharing it the same ``FileRefreshCoordinator`` too.
    ///
    /// - Parameters:
    ///   - accessGroup: The shared Keychain access group, with the team prefix (`TEAMID.com.example.shared`).
    ///   - service: A service name every target spells the same (`com.example.gatehouse`); not the bundle
    ///     identifier of any one target.
    ///   - configuration: The client's configuration (its base URL and client id name the item).
    /// - Returns: The store.
    public static func shared(accessGroup: String, service: String, for configuration: GatehouseClient.Configuration) -> KeychainTokenStore {
        let layout = KeychainItem.shared(
            accessGroup: accessGroup,
            service: service,
            for: configuration,
            bundleIdentifier: Bundle.main.bundleIdentifier
        )
        return KeychainTokenStore(item: layout.item, legacy: layout.legacy)
    }

    init(item: KeychainItem, legacy: [KeychainItem] = []) {
        self.item = item
        self.legacy = legacy
    }

    /// `item`'s query with the Security framework's keys.
    static func query(_ item: KeychainItem) -> [String: Any] {
        var query: [String: Any] = [:]
        for (key, value) in item.query {
            let name: CFString =
                switch key {
                case .itemClass: kSecClass
                case .service: kSecAttrService
                case .account: kSecAttrAccount
                case .accessGroup: kSecAttrAccessGroup
                case .useDataProtectionKeychain: kSecUseDataProtectionKeychain
                }
            switch value {
            case .genericPassword: query[name as String] = kSecClassGenericPassword
            case .string(let text): query[name as String] = text
            case .bool(let flag): query[name as String] = flag
            }
        }
        return query
    }

    /// Reads the session from the Keychain.
    ///
    /// - Returns: The session, or `nil` when there is no item.
    /// - Throws: ``KeychainError`` when the Keychain refuses (for instance before the first unlock after a
    ///   reboot), or a `DecodingError` when the item is not a session.
    public func load() throws -> Session? {
        var query = Self.query(item)
        query[kSecReturnData as String] = true
        query[kSecMatchLimit as String] = kSecMatchLimitOne
        var found: CFTypeRef?
        let status = SecItemCopyMatching(query as CFDictionary, &found)
        if status == errSecItemNotFound { return try migrateLegacy() }
        guard status == errSecSuccess, let data = found as? Data else { throw KeychainError(status: status) }
        return try FileTokenStore.decoder.decode(Session.self, from: data)
    }

    /// Moves the session from the first legacy item holding one. A legacy item that cannot be read counts as
    /// none: this store's own item was readable, so such a failure is lasting (an entitlement), not a lock.
    private func migrateLegacy() throws -> Session? {
        for old in legacy where old != item {
            let store = KeychainTokenStore(item: old)
            guard let session = (try? store.load()) ?? nil else { continue }
            try save(session)
            try? store.clear()
            return session
        }
        return nil
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
        let query = Self.query(item)
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
        let status = SecItemDelete(Self.query(item) as CFDictionary)
        guard status == errSecSuccess || status == errSecItemNotFound else { throw KeychainError(status: status) }
    }
}

/// A Keychain call failed with `status` (an `OSStatus`).
public struct KeychainError: Error, Sendable, Equatable {
    /// The `OSStatus` the Keychain returned (see `SecCopyErrorMessageString`).
    public let status: Int32
}
#endif

import Foundation

/// The Keychain item a ``KeychainTokenStore`` keeps the session in, described without the Security framework, so
/// what names the item (and so who shares it) is the same code, and tested, on every platform.
///
/// Processes share an item only when their queries name the same service, account and access group; on macOS
/// an access group applies only in the data protection keychain (`kSecUseDataProtectionKeychain`), which other
/// platforms always use and where the key is ignored.
struct KeychainItem: Sendable, Equatable {
    /// A key of the item's query; ``KeychainTokenStore`` maps each to its Security framework constant.
    enum Key: Sendable, Hashable, CaseIterable {
        /// `kSecClass`.
        case itemClass
        /// `kSecAttrService`.
        case service
        /// `kSecAttrAccount`.
        case account
        /// `kSecAttrAccessGroup`.
        case accessGroup
        /// `kSecUseDataProtectionKeychain`.
        case useDataProtectionKeychain
    }

    /// A value of the item's query.
    enum Value: Sendable, Equatable {
        /// `kSecClassGenericPassword`.
        case genericPassword
        /// A string attribute.
        case string(String)
        /// A boolean.
        case bool(Bool)
    }

    /// What a store reads and writes: its item, and older items a session is moved from on first read.
    struct Layout: Sendable, Equatable {
        /// The item the store reads and writes.
        var item: KeychainItem
        /// Items earlier SDK versions (or recipes) kept the session in, tried in order when ``item`` is missing.
        var legacy: [KeychainItem]
    }

    var service: String
    var account: String
    var accessGroup: String? = nil
    var usesDataProtectionKeychain = false

    /// The query that finds the item (and, with the data and its accessibility, adds it).
    var query: [Key: Value] {
        var query: [Key: Value] = [.itemClass: .genericPassword, .service: .string(service), .account: .string(account)]
        if let accessGroup { query[.accessGroup] = .string(accessGroup) }
        if usesDataProtectionKeychain { query[.useDataProtectionKeychain] = .bool(true) }
        return query
    }

    /// The service an app-only store defaults to: the bundle identifier, which is another one in each extension.
    ///
    /// - Parameter bundleIdentifier: `Bundle.main.bundleIdentifier`.
    /// - Returns: The service.
    static func defaultService(bundleIdentifier: String?) -> String { bundleIdentifier ?? "Gatehouse" }

    /// The item of ``KeychainTokenStore/init(for:service:accessGroup:)``: keyed by server and client, in the
    /// keychain earlier versions used; a session under the 0.x account `session` is moved over.
    ///
    /// - Parameters:
    ///   - configuration: The client's configuration (its ``GatehouseClient/Configuration/storeKey`` is the account).
    ///   - service: The service.
    ///   - accessGroup: The access group, if any.
    /// - Returns: The item and the legacy one.
    static func appOnly(for configuration: GatehouseClient.Configuration, service: String, accessGroup: String? = nil) -> Layout {
        Layout(
            item: KeychainItem(service: service, account: configuration.storeKey, accessGroup: accessGroup),
            legacy: [KeychainItem(service: service, account: "session", accessGroup: accessGroup)]
        )
    }

    /// The item of ``KeychainTokenStore/shared(accessGroup:service:for:)``: named by the access group, the
    /// explicit service and the server and client alone (never the bundle identifier), in the data protection
    /// keychain. A session the app kept under the earlier recipe (`KeychainTokenStore(for:accessGroup:)`: the
    /// bundle identifier as service) is moved over on first read.
    ///
    /// - Parameters:
    ///   - accessGroup: The Keychain access group every sharing target has (`TEAMID.com.example.shared`).
    ///   - service: The service every sharing target names.
    ///   - configuration: The client's configuration (its ``GatehouseClient/Configuration/storeKey`` is the account).
    ///   - bundleIdentifier: `Bundle.main.bundleIdentifier`, which names only the legacy items.
    /// - Returns: The item and the legacy ones.
    static func shared(
        accessGroup: String,
        service: String,
        for configuration: GatehouseClient.Configuration,
        bundleIdentifier: String?
    ) -> Layout {
        let item = KeychainItem(service: service, account: configuration.storeKey, accessGroup: accessGroup, usesDataProtectionKeychain: true)
        guard let bundleIdentifier else { return Layout(item: item, legacy: []) }
        return Layout(
            item: item,
            legacy: [configuration.storeKey, "session"].map { KeychainItem(service: bundleIdentifier, account: $0, accessGroup: accessGroup) }
        )
    }
}

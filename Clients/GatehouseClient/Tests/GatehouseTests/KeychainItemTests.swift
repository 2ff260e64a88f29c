import Foundation
import Testing

@testable import Gatehouse

/// Which Keychain item a ``KeychainTokenStore`` names, checked on every platform through ``KeychainItem`` (the
/// Keychain itself exists only on Apple platforms): an app and its widget share a session only when their
/// queries name the same item, and on macOS only in the data protection keychain.
@Suite("Keychain: the item an app and its extensions share")
struct KeychainItemTests {
    static let configuration = GatehouseClient.Configuration(baseURL: base, clientID: "app-client")
    static let group = "TEAMID.com.example.shared"

    @Test func theSharedItemIsTheSameInTheAppAndItsExtensions() {
        let app = KeychainItem.shared(
            accessGroup: Self.group,
            service: "com.example.session",
            for: Self.configuration,
            bundleIdentifier: "com.example.app"
        )
        let widget = KeychainItem.shared(
            accessGroup: Self.group,
            service: "com.example.session",
            for: Self.configuration,
            bundleIdentifier: "com.example.app.widget"
        )
        #expect(app.item == widget.item, "the bundle identifier does not name the shared item")
        #expect(
            app.item.query == [
                .itemClass: .genericPassword, .service: .string("com.example.session"), .account: .string(Self.configuration.storeKey),
                .accessGroup: .string(Self.group), .useDataProtectionKeychain: .bool(true),
            ]
        )
    }

    @Test func theAppOnlyDefaultNamesAnotherItemInEachExtension() {
        // Why sharing needs the explicit service: the default is the bundle identifier, another in each extension.
        let app = KeychainItem.appOnly(for: Self.configuration, service: KeychainItem.defaultService(bundleIdentifier: "com.example.app"))
        let widget = KeychainItem.appOnly(for: Self.configuration, service: KeychainItem.defaultService(bundleIdentifier: "com.example.app.widget"))
        #expect(app.item.query != widget.item.query)
        #expect(app.item.query[.useDataProtectionKeychain] == nil, "an app's own item stays where earlier versions kept it")
        #expect(app.legacy == [KeychainItem(service: "com.example.app", account: "session")], "the 0.x account is moved over")
    }

    @Test func aSessionKeptUnderTheEarlierRecipeIsMovedToTheSharedItem() {
        let app = KeychainItem.shared(
            accessGroup: Self.group,
            service: "com.example.session",
            for: Self.configuration,
            bundleIdentifier: "com.example.app"
        )
        let earlier = KeychainItem(service: "com.example.app", account: Self.configuration.storeKey, accessGroup: Self.group)
        #expect(app.legacy.first == earlier, "the item KeychainTokenStore(for:accessGroup:) wrote in the app")
        #expect(KeychainItem.shared(accessGroup: Self.group, service: "s", for: Self.configuration, bundleIdentifier: nil).legacy.isEmpty)
    }

    #if canImport(Security)
    @Test func theSharedStoreQueriesTheSharedItem() {
        let store = KeychainTokenStore.shared(accessGroup: Self.group, service: "com.example.session", for: Self.configuration)
        #expect(store.service == "com.example.session" && store.account == Self.configuration.storeKey)
        #expect(store.accessGroup == Self.group && store.usesDataProtectionKeychain)
        let query = KeychainTokenStore.query(store.item)
        #expect(query[kSecUseDataProtectionKeychain as String] as? Bool == true)
        #expect(query[kSecAttrService as String] as? String == "com.example.session")
        #expect(query[kSecAttrAccessGroup as String] as? String == Self.group)
        #expect(KeychainTokenStore(for: Self.configuration).usesDataProtectionKeychain == false)
    }
    #endif
}

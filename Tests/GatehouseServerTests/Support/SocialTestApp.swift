import Crypto
import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import Logging

/// Client ids the social tests configure.
enum Clients {
    static let googleWeb = "web-client.apps.googleusercontent.com"
    static let googleIOS = "ios-client.apps.googleusercontent.com"
    static let appleBundle = "com.example.app"
    static let appleServices = "com.example.web"
}

extension TestApp {
    /// An app whose Google and Apple settings point at `issuer`, with Apple credentials (a fresh
    /// P-256 key written as a .p8 file), on `database`.
    static func social(
        issuer: FakeIssuer,
        database: TestDatabase = .sqlite,
        logger: Logger? = nil,
        clock: TestClock = TestClock(Date()),
        realTime: Bool = false,
        backgroundKeyRefresh: Bool = true,
        configure: (inout GatehouseConfiguration) -> Void = { _ in }
    ) async throws -> (TestApp, P256.Signing.PublicKey) {
        let appleKey = P256.Signing.PrivateKey()
        let keyFile = FileManager.default.temporaryDirectory.appendingPathComponent("AuthKey_TEST\(UUID().uuidString.prefix(6)).p8")
        try appleKey.pemRepresentation.write(to: keyFile, atomically: true, encoding: .utf8)
        let app = try await TestApp.make(
            database: database,
            logger: logger,
            clock: clock,
            realTime: realTime,
            backgroundKeyRefresh: backgroundKeyRefresh
        ) { c in
            c.googleClientIDs = [Clients.googleWeb, Clients.googleIOS]
            c.googleJWKSURL = issuer.googleJWKSURL
            c.appleClientIDs = [Clients.appleBundle]
            c.appleServicesID = Clients.appleServices
            c.appleJWKSURL = issuer.appleJWKSURL
            c.appleAPIURL = issuer.appleAPIURL
            c.appleTeamID = "TEAM123456"
            c.appleKeyID = "KEY1234567"
            c.applePrivateKeyFile = keyFile.path
            configure(&c)
        }
        if !realTime { issuer.follow(clock) }
        return (app, appleKey.publicKey)
    }
}

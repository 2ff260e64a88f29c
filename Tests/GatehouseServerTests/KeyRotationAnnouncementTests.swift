import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseStore
import GatehouseTesting
import HummingbirdTesting
import Logging
import Testing

/// Issue 14, point 5: `gatehouse keys rotate` on any host; running instances sign with the new key at
/// once (announced over NOTIFY), not at their next periodic reload (a minute).
@Suite("Key rotation reaches running instances", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct KeyRotationAnnouncementTests {
    static func signingKid(_ client: any TestClientProtocol, _ app: TestApp, email: String) async throws -> String? {
        let tokens = try await client.signedIn(app, email: email).json?.objectValue
        let access = tokens?["access_token"]?.stringValue ?? ""
        let header = access.split(separator: ".").first.map(String.init) ?? ""
        let json = Base64URL.decode(header).flatMap { try? StrictJSONParser().parse($0) }
        return json?.objectValue?["kid"]?.stringValue
    }

    @Test func aRotationOnAnotherHostIsUsedAtOnce() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let (url, apps) = try await CrossInstanceInvalidationTests.instances(1)
        let app = apps[0]
        try await app.router { client in
            try await CrossInstanceInvalidationTests.waitForListening([app])
            let before = try #require(try await Self.signingKid(client, app, email: "k1@example.com"))
            var cli = GatehouseConfiguration()
            cli.databaseURL = url
            cli.masterKey = CrossInstanceInvalidationTests.masterKey
            cli.dataDirectory = app.directory.appendingPathComponent("cli").path
            let lines = try await KeyAdministration.rotate(uses: [.accessToken], configuration: cli, logger: .init(label: "cli"))
            #expect(lines.contains { $0.contains("were told") }, "\(lines)")
            let deadline = Date().addingTimeInterval(2)
            var after = before
            var index = 2
            while after == before, Date() < deadline {
                try await Task.sleep(for: .milliseconds(20))
                after = try #require(try await Self.signingKid(client, app, email: "k\(index)@example.com"))
                index += 1
            }
            #expect(after != before, "the running instance signs with the new key within 2 s (its periodic reload is a minute away)")
        }
    }

    /// A rotation this instance never heard of (made without an announcement, as one is missed while the
    /// LISTEN connection reconnects) is picked up as soon as the channel listens again, not at the
    /// periodic reload (an hour away here; the 60 s bound only limits how long a failure takes).
    @Test func aRotationMissedWhileTheChannelWasDownIsUsedOnceItListensAgain() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let url = TestDatabase.postgres.freshURL().url
        let app = try await TestApp.make(database: .postgres, keyReloadInterval: .seconds(3600)) { configuration in
            configuration.masterKey = CrossInstanceInvalidationTests.masterKey
            configuration.databaseURL = url
        }
        try await app.router { client in
            try await CrossInstanceInvalidationTests.waitForListening([app])
            // One sign-in, then refreshes: each answer is signed with the key the instance holds now
            // (new sign-ups every few milliseconds would meet the sign-up throttle instead).
            var tokens = try await client.signedIn(app, email: "missed@example.com").object
            func kid(_ tokens: [String: JSONValue]) -> String? {
                Base64URL.decode(tokens["access_token"]?.stringValue?.split(separator: ".").first.map(String.init) ?? "")
                    .flatMap { try? StrictJSONParser().parse($0) }?.objectValue?["kid"]?.stringValue
            }
            let before = try #require(kid(tokens))
            try await Self.rotateUnannounced(url: url)
            let listened = [app.built.eventChannelConnections ?? 0]
            #expect(try await CrossInstanceInvalidationTests.terminateListeners(url: url) >= 1)
            try await CrossInstanceInvalidationTests.waitForListening([app], after: listened)
            let deadline = Date().addingTimeInterval(60)
            var after = before
            while after == before, Date() < deadline {
                try await Task.sleep(for: .milliseconds(50))
                let refreshed = try await client.send(.post, "/auth/refresh", json: ["refresh_token": tokens["refresh_token"] ?? .null])
                #expect(refreshed.status == .ok)
                guard refreshed.status == .ok else { break }
                tokens = refreshed.object
                after = try #require(kid(tokens))
            }
            #expect(after != before, "the instance still signed with the old key 60 s after its channel listened again")
        }
    }

    /// Rotates the access-token key straight in the store, telling no one.
    static func rotateUnannounced(url: String) async throws {
        let box = try SecretBox(masterKey: [UInt8](repeating: 7, count: 32))
        try await StoreLocation(url: url).withStore(logger: Logger(label: "silent-rotation")) { store in
            let manager = SigningKeyManager(secrets: store.secrets, box: box, clock: SystemTimeSource(), random: SystemRandomSource())
            _ = try await manager.rotate(use: .accessToken, overlap: 600, logger: Logger(label: "silent-rotation"))
        }
    }
}

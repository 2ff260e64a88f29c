import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
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
}

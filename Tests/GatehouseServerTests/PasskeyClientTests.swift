import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// Passkeys with a software authenticator no one here wrote the encoding of (python-fido2's CBOR and
/// COSE; `Scripts/passkeys_clients.py`), over a real socket, on each store: registration with three
/// algorithms, discoverable and named sign-in, and the hostile cases.
@Suite("Passkeys: a software authenticator, every check, each store", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct PasskeyClientTests {
    @Test(arguments: TestDatabase.available)
    func registrationAndSignInWithEveryCheck(_ database: TestDatabase) async throws {
        let app = try await TestApp.make(database: database, realTime: true, mail: .configured) { c in
            c.passkeys.rpID = "gatehouse.test"
            let generous = RateLimitRule(name: "client", freeAttempts: 10_000, window: 3600, baseBlock: 1, maxBlock: 1)
            c.pool.rateLimits.exchangePerClient = generous
            c.pool.rateLimits.mailPerAddress = generous
        }
        let outbox = app.directory.appendingPathComponent("outbox").path
        try await app.live { client in
            let port = try #require(client.port)
            guard
                let result = try await PythonScript.run(
                    "passkeys_clients.py",
                    arguments: [
                        "--endpoint", "http://127.0.0.1:\(port)", "--origin", "http://gatehouse.test", "--rp-id", "gatehouse.test", "--outbox",
                        outbox,
                    ],
                    requiring: "fido2"
                )
            else { return }
            #expect(result.status == 0 && result.output.contains("ALL OK"), "\(result.output)")
        }
    }

    @Test func offWithoutAnRPIDAndTheAssociationFilesFromConfiguration() async throws {
        let off = try await TestApp.make()
        try await off.router { client in
            let options = try await client.send(.post, "/auth/passkey/options", json: .object([:]))
            #expect(options.status == .notFound)
            let association = try await client.send(.get, "/.well-known/apple-app-site-association")
            #expect(association.status == .notFound)
        }
        let fingerprint = (0..<32).map { String(format: "%02X", $0) }.joined(separator: ":")
        let configured = try GatehouseConfiguration.fromEnvironment([
            "GATEHOUSE_PASSKEY_RP_ID": "example.com", "GATEHOUSE_PASSKEY_APPLE_APP_IDS": "ABCDE12345.com.example.notes",
            "GATEHOUSE_PASSKEY_ANDROID_APPS": "com.example.notes=\(fingerprint)",
        ])
        #expect(configured.passkeys.androidApps.first?.origin == "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8")
        let settings = try #require(configured.passkeys.settings(issuer: "https://auth.example.com", appName: "Notes"))
        #expect(settings.origins == ["https://auth.example.com", "android:apk-key-hash:AAECAwQFBgcICQoLDA0ODxAREhMUFRYXGBkaGxwdHh8"])
        let app = try await TestApp.make { $0.passkeys = configured.passkeys }
        try await app.router { client in
            let apple = try await client.send(.get, "/.well-known/apple-app-site-association")
            #expect(apple.status == .ok && apple.headers[.contentType] == "application/json")
            #expect(apple.bodyText == #"{"webcredentials":{"apps":["ABCDE12345.com.example.notes"]}}"#)
            let android = try await client.send(.get, "/.well-known/assetlinks.json")
            #expect(android.bodyText.contains(#""delegate_permission/common.get_login_creds""#) && android.bodyText.contains(fingerprint))
        }
    }

    @Test(arguments: [
        ["GATEHOUSE_PASSKEY_RP_ID": "https://example.com"], ["GATEHOUSE_PASSKEY_ORIGINS": "https://example.com/"],
        ["GATEHOUSE_PASSKEY_APPLE_APP_IDS": "com.example.notes"], ["GATEHOUSE_PASSKEY_ANDROID_APPS": "com.example=AB:CD"],
    ])
    func misconfigurationIsRefusedByName(_ env: [String: String]) {
        #expect(throws: ConfigurationError.self) { try GatehouseConfiguration.fromEnvironment(env) }
    }
}

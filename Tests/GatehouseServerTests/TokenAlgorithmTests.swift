import Crypto
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

/// `GATEHOUSE_TOKEN_ALG=ES256` signs with P-256 keys, published as EC JWKs; switching
/// an existing deployment keeps every token signed before verifying, and refresh and `/me` working.
@Suite("Tokens: ES256 signing keys (GATEHOUSE_TOKEN_ALG)", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct TokenAlgorithmTests {
    static let masterKey = Data(repeating: 7, count: 32).base64EncodedString()

    static func header(_ token: String) -> [String: JSONValue] {
        (try? CompactJWS(parsing: token).header) ?? [:]
    }

    static func jwks(_ client: any TestClientProtocol) async throws -> [[String: JSONValue]] {
        let reply = try await client.send(.get, "/.well-known/jwks.json")
        return reply.object["keys"]?.arrayValue?.compactMap(\.objectValue) ?? []
    }

    /// An app on the shared database `url`, signing with `algorithm`.
    static func app(
        _ database: TestDatabase,
        url: String,
        _ algorithm: SigningAlgorithm,
        clock: TestClock = TestClock(Date()),
        keyReloadInterval: Duration = .seconds(60)
    ) async throws -> TestApp {
        try await TestApp.make(database: database, clock: clock, keyReloadInterval: keyReloadInterval) { c in
            c.databaseURL = url
            c.masterKey = masterKey
            c.tokenAlgorithm = algorithm
        }
    }

    @Test(arguments: TestDatabase.available)
    func switchingToES256KeepsEarlierTokensWorking(_ database: TestDatabase) async throws {
        let (url, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let rsApp = try await Self.app(database, url: url, .rs256)
        let before = try await rsApp.router { client in
            let tokens = try await client.signedIn(rsApp, email: "switch@example.com")
            #expect(Self.header(tokens.string("access_token"))["alg"] == "RS256")
            return tokens.object
        }
        let oldAccess = before["access_token"]?.stringValue ?? ""
        let oldRefresh = before["refresh_token"] ?? .null
        let esApp = try await Self.app(database, url: url, .es256)
        let esTokens = try await esApp.router { client in
            // Signed before the switch: still accepted until the old key expires.
            #expect(try await client.send(.get, "/me", bearer: oldAccess).status == .ok)
            let keys = try await Self.jwks(client)
            let ec = keys.filter { $0["kty"] == "EC" }
            #expect(ec.count == 2 && keys.filter { $0["kty"] == "RSA" }.count == 2, "new EC keys beside the retired RSA ones: \(keys)")
            for key in ec {
                #expect(key["crv"] == "P-256" && key["alg"] == "ES256" && key["use"] == "sig" && key["kid"]?.stringValue != nil)
                #expect(key["x"]?.stringValue.flatMap(Base64URL.decode)?.count == 32 && key["y"]?.stringValue.flatMap(Base64URL.decode)?.count == 32)
                #expect(key["d"] == nil, "no private material")
            }
            let refreshed = try await client.send(.post, "/auth/refresh", json: ["refresh_token": oldRefresh])
            #expect(refreshed.status == .ok)
            let access = refreshed.string("access_token")
            let header = Self.header(access)
            #expect(header["alg"] == "ES256" && ec.contains { $0["kid"] == header["kid"] })
            #expect(Self.header(refreshed.string("id_token"))["alg"] == "ES256")
            #expect(try CompactJWS(parsing: access).signature.count == 64, "r || s, not DER")
            #expect(try await client.send(.get, "/me", bearer: access).status == .ok)
            let discovery = try await client.send(.get, "/.well-known/openid-configuration")
            #expect(discovery.object["id_token_signing_alg_values_supported"] == ["ES256", "RS256"])
            return refreshed.object
        }
        // And back: the ES256 tokens keep verifying under an RS256 configuration.
        try await Self.app(database, url: url, .rs256).router { client in
            let access = esTokens["access_token"]?.stringValue ?? ""
            #expect(try await client.send(.get, "/me", bearer: access).status == .ok)
            let refreshed = try await client.send(.post, "/auth/refresh", json: ["refresh_token": esTokens["refresh_token"] ?? .null])
            #expect(refreshed.status == .ok && Self.header(refreshed.string("access_token"))["alg"] == "RS256")
            #expect(try await Self.jwks(client).count == 6)
            // Discovery follows the published keys: RS256 signs again, ES256 ID tokens verify until they expire.
            let discovery = try await client.send(.get, "/.well-known/openid-configuration")
            #expect(discovery.object["id_token_signing_alg_values_supported"] == ["RS256", "ES256"])
        }
    }

    /// An instance that switches the algorithm at start-up tells the running ones, which verify the new
    /// key's tokens at once. The running instance's periodic key reload is an hour away, so only the
    /// announcement can make it accept them; the 60 s bound only limits how long a failure takes.
    @Test func aRunningInstanceAcceptsTheSwitchedKeysTokensAtOnce() async throws {
        guard TestDatabase.available.contains(.postgres) else { return }
        let url = TestDatabase.postgres.freshURL().url
        // One frozen clock for both: each app's own, made when the app is, would put the switching
        // instance's `iat` in the running one's future by however long the loaded machine took to
        // start it, past the leeway, and the token would be refused for that instead.
        let clock = TestClock(Date())
        let running = try await Self.app(.postgres, url: url, .rs256, clock: clock, keyReloadInterval: .seconds(3600))
        try await running.router { a in
            try await CrossInstanceInvalidationTests.waitForListening([running])
            let switching = try await Self.app(.postgres, url: url, .es256, clock: clock)
            try await switching.router { b in
                let access = try await b.signedIn(mailedBy: [running, switching], email: "announce@example.com").string("access_token")
                #expect(Self.header(access)["alg"] == "ES256")
                let deadline = Date().addingTimeInterval(60)
                var status = try await a.send(.get, "/me", bearer: access).status
                while status != .ok, Date() < deadline {
                    try await Task.sleep(for: .milliseconds(50))
                    status = try await a.send(.get, "/me", bearer: access).status
                }
                #expect(status == .ok, "the running instance refused the switched key's token for 60 s")
            }
        }
    }

    @Test func forgedTokensAreRefusedUnderES256() async throws {
        let app = try await TestApp.make { $0.tokenAlgorithm = .es256 }
        try await app.router { client in
            let tokens = try await client.signedIn(app)
            let access = tokens.string("access_token")
            let jws = try CompactJWS(parsing: access)
            let kid = jws.keyID ?? ""
            let payload = access.split(separator: ".")[1]
            func forged(_ header: JSONValue, signature: [UInt8]) -> String {
                Base64URL.encode(header.serialized()) + "." + payload + "." + Base64URL.encode(signature)
            }
            let ecKey = try #require(try await Self.jwks(client).first { $0["kid"] == .string(kid) })
            let x = Base64URL.decode(ecKey["x"]?.stringValue ?? "") ?? []
            let y = Base64URL.decode(ecKey["y"]?.stringValue ?? "") ?? []
            // `none`; HS256 keyed with the public key's bytes (key confusion); the ES256 signature relabelled
            // RS256; the signature in DER; someone else's P-256 key under our kid.
            let noneHeader: JSONValue = ["alg": "none", "kid": .string(kid)]
            let hsHeader: JSONValue = ["alg": "HS256", "kid": .string(kid), "typ": "JWT"]
            let hsInput = Array((Base64URL.encode(hsHeader.serialized()) + "." + payload).utf8)
            let hmac = HMAC<SHA256>.authenticationCode(for: hsInput, using: SymmetricKey(data: [0x04] + x + y))
            let relabelled = forged(["alg": "RS256", "kid": .string(kid), "typ": "JWT"], signature: jws.signature)
            let der = try P256.Signing.ECDSASignature(rawRepresentation: jws.signature).derRepresentation
            let strangerHeader: JSONValue = ["alg": "ES256", "kid": .string(kid), "typ": "JWT"]
            let strangerInput = Array((Base64URL.encode(strangerHeader.serialized()) + "." + payload).utf8)
            let stranger = try P256.Signing.PrivateKey().signature(for: strangerInput).rawRepresentation
            let attempts = [
                forged(noneHeader, signature: jws.signature),
                forged(hsHeader, signature: Array(hmac)),
                relabelled,
                forged(["alg": "ES256", "kid": .string(kid), "typ": "JWT"], signature: Array(der)),
                forged(strangerHeader, signature: Array(stranger)),
            ]
            for token in attempts {
                #expect(try await client.send(.get, "/me", bearer: token).status == .unauthorized, "\(Self.header(token))")
            }
            #expect(try await client.send(.get, "/me", bearer: access).status == .ok, "the genuine token passes")
        }
    }

    @Test func theCognitoAPIAndTheHostedUIAcceptES256TokensAndRefuseARelabelledOne() async throws {
        let app = try await TestApp.make { c in
            c.tokenAlgorithm = .es256
            c.cognitoAPI = true
            c.hostedUI = true
            c.callbackURLs = ["https://app.example.com/cb"]
        }
        try await app.router { client in
            let access = try await client.signedIn(app).string("access_token")
            #expect(Self.header(access)["alg"] == "ES256")
            let parts = access.split(separator: ".").map(String.init)
            let header: JSONValue = ["alg": "RS256", "kid": Self.header(access)["kid"] ?? .null, "typ": "JWT"]
            let relabelled = Base64URL.encode(header.serialized()) + "." + parts[1] + "." + parts[2]
            let user = try await CognitoAPIRoutesTests.call(client, "GetUser", ["AccessToken": .string(access)])
            #expect(user.status == .ok, "\(user.bodyText)")
            let refused = try await CognitoAPIRoutesTests.call(client, "GetUser", ["AccessToken": .string(relabelled)])
            #expect(refused.string("__type") == "NotAuthorizedException", "\(refused.bodyText)")
            let info = try await client.send(.get, "/oauth2/userInfo", bearer: access)
            #expect(info.status == .ok && !info.string("sub").isEmpty, "\(info.bodyText)")
            #expect(try await client.send(.get, "/oauth2/userInfo", bearer: relabelled).status == .unauthorized)
        }
    }

    @Test func pyJWTVerifiesES256TokensAgainstTheJWKS() async throws {
        let app = try await TestApp.make { $0.tokenAlgorithm = .es256 }
        try await app.live { client in
            let port = try #require(client.port)
            let tokens = try await client.signedIn(app)
            #expect(tokens.status == .ok)
            try await IndependentVerifier.expectAccepts(tokens, port: port, algorithm: "ES256")
        }
    }

    @Test func anUnknownAlgorithmFailsStartUp() throws {
        for value in ["HS256", "none", "RS512", "es384", "ECDSA"] {
            #expect(throws: ConfigurationError.self) { try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_TOKEN_ALG": value]) }
        }
        #expect(try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_TOKEN_ALG": "ES256"]).tokenAlgorithm == .es256)
        #expect(try GatehouseConfiguration.fromEnvironment([:]).tokenAlgorithm == .rs256)
        do {
            _ = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_TOKEN_ALG": "HS256"])
            Issue.record("HS256 was accepted")
        } catch let error as ConfigurationError {
            #expect(error.message.contains("GATEHOUSE_TOKEN_ALG") && error.message.contains("RS256") && error.message.contains("ES256"))
        }
    }
}

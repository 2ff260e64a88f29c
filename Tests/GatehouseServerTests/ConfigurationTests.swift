import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import HummingbirdTesting
import Testing

@Suite("Configuration", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct ConfigurationTests {
    @Test func defaultsStartAFreshMachine() throws {
        let c = try GatehouseConfiguration.fromEnvironment([:])
        #expect(c.host == "127.0.0.1" && c.port == 8080 && c.dataDirectory == "./.gatehouse" && c.identityProvider == .embedded)
        #expect(c.resolvedIssuer == "http://localhost:8080" && c.mail.isOutbox && c.maxBodySize == 65536)
        #expect(c.resolvedDatabaseURL.hasPrefix("sqlite://") && c.resolvedDatabaseURL.hasSuffix(".gatehouse/gatehouse.sqlite"))
        #expect(c.scrypt == .owasp && c.pool.refreshReuseGrace == 10)
    }

    @Test func readsVariables() throws {
        let c = try GatehouseConfiguration.fromEnvironment([
            "GATEHOUSE_HTTP_PORT": "9000", "GATEHOUSE_ISSUER": "https://auth.example.com/", "GATEHOUSE_REFRESH_REUSE_GRACE": "60",
            "GATEHOUSE_LOG_FORMAT": "json", "GATEHOUSE_TRUSTED_PROXIES": "10.0.0.1, 10.0.0.2", "GATEHOUSE_SCRYPT_LOG_N": "15",
        ])
        #expect(c.port == 9000 && c.resolvedIssuer == "https://auth.example.com" && c.pool.refreshReuseGrace == 60)
        #expect(c.logFormat == .json && c.trustedProxies == ["10.0.0.1", "10.0.0.2"] && c.scrypt.logN == 15)
    }

    @Test(arguments: [
        ["GATEHOUSE_HTTP_PORT": "eighty"], ["GATEHOUSE_HTTP_PORT": "70000"], ["GATEHOUSE_REFRESH_REUSE_GRACE": "61"],
        ["GATEHOUSE_IDENTITY_PROVIDER": "firebase"], ["GATEHOUSE_LOG_LEVEL": "loud"], ["GATEHOUSE_AUTO_MIGRATE": "maybe"],
        ["GATEHOUSE_MAIL": "smtp://:secret@mail.example.com"], ["GATEHOUSE_MAIL": "smtp://mail.example.com:99999"],
        ["GATEHOUSE_MAIL": "smtp://mail.example.com?tls=maybe"], ["GATEHOUSE_MAIL": "sendmail"], ["GATEHOUSE_MAIL": "ses"],
        ["GATEHOUSE_MAIL": "smtp://mail.example.com", "GATEHOUSE_SMTP_CA_FILE": "/nonexistent.pem"],
        ["GATEHOUSE_MAIL_MAX_ATTEMPTS": "0"], ["GATEHOUSE_MAIL_RETRY_BASE": "0"],
        ["GATEHOUSE_MAIL_FROM": "Gatehouse <no-reply@localhost>\r\nBcc: x@evil.example"],
        ["GATEHOUSE_MAIL_COOLDOWN": "0"],
        ["GATEHOUSE_IDENTITY_PROVIDER": "cognito"],
        ["GATEHOUSE_IDENTITY_PROVIDER": "cognito", "GATEHOUSE_COGNITO_USER_POOL_ID": "eu-west-1_Abc"],
        ["GATEHOUSE_IDENTITY_PROVIDER": "cognito", "GATEHOUSE_COGNITO_USER_POOL_ID": "not a pool", "GATEHOUSE_COGNITO_CLIENT_ID": "c"],
        [
            "GATEHOUSE_IDENTITY_PROVIDER": "cognito", "GATEHOUSE_COGNITO_USER_POOL_ID": "eu-west-1_Abc", "GATEHOUSE_COGNITO_CLIENT_ID": "c",
            "GATEHOUSE_COGNITO_REGION": "us-east-1",
        ],
        [
            "GATEHOUSE_IDENTITY_PROVIDER": "cognito", "GATEHOUSE_COGNITO_USER_POOL_ID": "eu-west-1_Abc", "GATEHOUSE_COGNITO_CLIENT_ID": "c",
            "GATEHOUSE_COGNITO_ENDPOINT": "ftp://x",
        ],
    ])
    func refusesBadValuesByName(_ env: [String: String]) {
        do {
            _ = try GatehouseConfiguration.fromEnvironment(env)
            Issue.record("accepted \(env)")
        } catch let error as ConfigurationError {
            // The message names the variable to fix (one of those set, or the one missing).
            #expect(error.message.contains("GATEHOUSE_"), "\(error.message)")
            #expect(env.keys.contains { error.message.contains($0) } || error.message.contains("needs GATEHOUSE_"), "\(error.message)")
        } catch {
            Issue.record("unexpected \(error)")
        }
    }

    @Test func theCognitoAPIIsOffByDefaultAndWantsACognitoShapedPoolID() throws {
        let plain = try GatehouseConfiguration.fromEnvironment([:])
        #expect(!plain.cognitoAPI && plain.poolID == nil)
        let on = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_COGNITO_API": "true", "GATEHOUSE_POOL_ID": "eu-west-1_Gatehouse7"])
        #expect(on.cognitoAPI && on.poolID == "eu-west-1_Gatehouse7")
        for bad in ["Gatehouse7", "eu-west-1_", "eu-west-1_bad-id", "_x", "eu-west-1_x y"] {
            let error = #expect(throws: ConfigurationError.self, "\(bad)") {
                _ = try GatehouseConfiguration.fromEnvironment(["GATEHOUSE_POOL_ID": bad])
            }
            #expect(error?.message.contains("GATEHOUSE_POOL_ID") == true)
        }
    }

    @Test func theCognitoAPIIsRefusedInCognitoModeWithAClearMessage() throws {
        let error = #expect(throws: ConfigurationError.self) {
            _ = try GatehouseConfiguration.fromEnvironment([
                "GATEHOUSE_IDENTITY_PROVIDER": "cognito", "COGNITO_USER_POOL_ID": "eu-west-1_AbC123", "COGNITO_CLIENT_ID": "client123",
                "GATEHOUSE_COGNITO_API": "true",
            ])
        }
        #expect(error?.message.contains("talk to Cognito itself") == true, "\(String(describing: error))")
    }

    @Test func cognitoReadsTheSeedsNamesAndDerivesTheRest() throws {
        let c = try GatehouseConfiguration.fromEnvironment([
            "GATEHOUSE_IDENTITY_PROVIDER": "cognito", "COGNITO_USER_POOL_ID": "eu-west-1_AbC123", "COGNITO_CLIENT_ID": "client123",
            "AWS_ACCESS_KEY_ID": "AKID", "AWS_SECRET_ACCESS_KEY": "secret", "AWS_SESSION_TOKEN": "session",
        ])
        let cognito = try #require(c.cognito)
        #expect(cognito.region == "eu-west-1" && cognito.clientID == "client123" && cognito.endpoint == "https://cognito-idp.eu-west-1.amazonaws.com")
        #expect(cognito.issuer == "https://cognito-idp.eu-west-1.amazonaws.com/eu-west-1_AbC123")
        #expect(cognito.jwksURL == cognito.issuer + "/.well-known/jwks.json" && !cognito.refreshRotation)
        #expect(c.awsCredentials == .init(accessKeyID: "AKID", secretAccessKey: "secret", sessionToken: "session"))
        let emulated = try GatehouseConfiguration.fromEnvironment([
            "GATEHOUSE_IDENTITY_PROVIDER": "cognito", "GATEHOUSE_COGNITO_USER_POOL_ID": "us-east-1_x", "GATEHOUSE_COGNITO_CLIENT_ID": "c",
            "GATEHOUSE_COGNITO_ENDPOINT": "http://127.0.0.1:5701",
            "GATEHOUSE_COGNITO_JWKS_URL": "http://127.0.0.1:5701/us-east-1_x/.well-known/jwks.json",
            "GATEHOUSE_COGNITO_REFRESH_ROTATION": "true",
        ])
        #expect(emulated.cognito?.endpoint == "http://127.0.0.1:5701" && emulated.cognito?.refreshRotation == true)
        #expect(emulated.cognito?.issuer == "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_x", "the issuer stays AWS's behind an emulator")
    }

    @Test func dotEnvFilesParse() {
        let parsed = DotEnv.parse(
            """
            # comment
            export GATEHOUSE_HTTP_PORT=9001
            GOOGLE_CLIENT_ID="a.apps.googleusercontent.com,b.apps.googleusercontent.com"
            EMPTY=
            GATEHOUSE_APP_NAME='My App' # trailing
            """
        )
        #expect(parsed["GATEHOUSE_HTTP_PORT"] == "9001" && parsed["GOOGLE_CLIENT_ID"] == "a.apps.googleusercontent.com,b.apps.googleusercontent.com")
        #expect(parsed["EMPTY"] == "" && parsed["GATEHOUSE_APP_NAME"] == "My App")
    }

    @Test func aSecondInstanceWithAnotherMasterKeyRefusesToStart() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gh-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var c = GatehouseConfiguration()
        c.dataDirectory = directory.path
        c.port = 0
        // The master key is made when the app first runs (in `beforeServerStarts`), not when it is built.
        try await buildApplication(configuration: c).app.test(.router) { _ in }
        let keyFile = directory.appendingPathComponent("master.key")
        #expect(FileManager.default.fileExists(atPath: keyFile.path))
        let attributes = try FileManager.default.attributesOfItem(atPath: keyFile.path)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        c.masterKey = Data(repeating: 9, count: 32).base64EncodedString()
        await #expect(throws: ConfigurationError.self) { try await buildApplication(configuration: c).app.test(.router) { _ in } }
    }
}

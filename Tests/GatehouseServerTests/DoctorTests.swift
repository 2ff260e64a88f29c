import Foundation
import GatehouseCore
import GatehouseServer
import GatehouseTesting
import Logging
import Testing

@Suite(
    "Doctor: the misconfigurations the seeds list, caught with their fixes",
    .tags(.emulator),
    .enabled(if: TestKind.runs("emulator")),
    .tags(.integration),
    .enabled(if: TestKind.runs("integration"))
)
struct DoctorTests {
    static let logger = Logger(label: "doctor-test")

    @Test(.enabled(if: MotoCognito.isAvailable))
    func aMisconfiguredPoolIsReportedItemByItem() async throws {
        let moto = try #require(MotoCognito.shared)
        var c = GatehouseConfiguration()
        moto.configure(&c, misconfigured: true)
        c.googleClientIDs = ["ios-client.apps.googleusercontent.com", "web-client.apps.googleusercontent.com"]
        c.appleClientIDs = ["com.example.app"]
        c.appleServicesID = "com.example.app.signin"
        c.appURLScheme = "myapp"
        let report = await Doctor.run(configuration: c, logger: Self.logger)
        let expected = [
            "cognito.client.secret", "cognito.client.flow.admin", "cognito.client.flow.password", "cognito.client.callback",
            "cognito.client.sign-out",
            "cognito.idp.Google.scopes-commas", "cognito.idp.Google.scopes-admin", "cognito.idp.google.client",
            "cognito.idp.SignInWithApple.scopes-commas", "cognito.idp.apple.client",
        ]
        for id in expected {
            let finding = report.finding(id)
            #expect(finding?.severity == .problem && finding?.fix.isEmpty == false, "\(id) not reported:\n\(report.rendered)")
        }
        #expect(report.finding("cognito.idp.Google.scopes-commas")?.fix.contains("openid email profile") == true)
        #expect(report.finding("cognito.pool.verify")?.severity == .warning)
        #expect(report.exitStatus == 1)
        #expect(report.rendered.contains("PROBLEM") && report.rendered.contains("fix:"))
    }

    @Test(.enabled(if: MotoCognito.isAvailable))
    func theReadmesPoolPasses() async throws {
        let moto = try #require(MotoCognito.shared)
        var c = GatehouseConfiguration()
        moto.configure(&c)
        c.googleClientIDs = ["ios-client.apps.googleusercontent.com", "web-client.apps.googleusercontent.com"]
        c.appleClientIDs = ["com.example.app"]
        c.appleServicesID = "com.example.app.signin"
        c.appURLScheme = "myapp"
        let report = await Doctor.run(configuration: c, logger: Self.logger)
        #expect(report.problems.isEmpty, "\(report.rendered)")
        #expect(report.finding("cognito.jwks")?.severity == .ok)
        #expect(report.exitStatus == 0)
    }

    @Test func anUnreachablePoolSaysWhatToCheck() async throws {
        var c = GatehouseConfiguration()
        c.identityProvider = .cognito
        c.cognito = .init(userPoolID: "us-east-1_Nowhere", clientID: "c", endpoint: "http://127.0.0.1:9", jwksURL: "http://127.0.0.1:9/jwks.json")
        let report = await Doctor.run(configuration: c, logger: Self.logger)
        #expect(report.finding("cognito.pool")?.severity == .problem && report.finding("aws.credentials")?.severity == .warning)
        #expect(report.exitStatus == 1)
    }

    @Test func socialMixUpsAreCaughtInEitherMode() async throws {
        var c = GatehouseConfiguration()
        c.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)").path
        c.googleClientIDs = ["123-abc", "web.apps.googleusercontent.com"]
        c.appleClientIDs = ["com.example.web"]
        c.appleServicesID = "com.example.web"
        let report = await Doctor.run(configuration: c, logger: Self.logger)
        #expect(report.finding("google.client-ids")?.severity == .problem)
        #expect(report.finding("apple.services-id")?.severity == .problem)
        #expect(report.finding("apple.credentials")?.severity == .warning)
        #expect(!FileManager.default.fileExists(atPath: c.dataDirectory), "the doctor creates nothing")
    }

    @Test func theEmbeddedPoolChecksKeysIssuerAndMail() async throws {
        let app = try await TestApp.make()
        // A fresh data directory: nothing is wrong, the keys come at first start.
        var fresh = GatehouseConfiguration()
        fresh.dataDirectory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-\(UUID().uuidString)").path
        fresh.issuer = "http://127.0.0.1:9"
        let first = await Doctor.run(configuration: fresh, logger: Self.logger)
        #expect(
            first.exitStatus == 0 && first.finding("embedded.keys")?.severity == .warning && first.finding("embedded.issuer")?.severity == .warning,
            "\(first.rendered)"
        )
        #expect(first.finding("embedded.mail")?.severity == .ok)
        #expect(first.finding("webhooks.private") == nil)
        fresh.webhookAllowPrivate = true
        #expect(await Doctor.run(configuration: fresh, logger: Self.logger).finding("webhooks.private")?.severity == .warning)
        fresh.webhookAllowPrivate = false

        try await app.live { client in
            let port = try #require(client.port)
            var c = GatehouseConfiguration()
            c.dataDirectory = app.directory.path
            c.databaseURL = "sqlite://" + app.directory.appendingPathComponent("test.sqlite").path
            c.issuer = "http://127.0.0.1:\(port)"
            // The test app's issuer is http://gatehouse.test: the doctor notices the mismatch.
            let report = await Doctor.run(configuration: c, logger: Self.logger)
            #expect(report.finding("embedded.keys")?.severity == .ok, "\(report.rendered)")
            #expect(report.finding("embedded.issuer")?.severity == .problem)
            // Another master key cannot open the keys.
            c.masterKey = Data(repeating: 1, count: 32).base64EncodedString()
            let wrongKey = await Doctor.run(configuration: c, logger: Self.logger)
            #expect(wrongKey.finding("embedded.keys")?.severity == .problem && wrongKey.exitStatus == 1)
        }
    }

    @Test func theCognitoAPISaysWhatTheAppsNeedAndWhetherAmplifyCanReachIt() async throws {
        let app = try await TestApp.make { $0.cognitoAPI = true }
        try await app.live { _ in
            var c = GatehouseConfiguration()
            c.dataDirectory = app.directory.path
            c.databaseURL = "sqlite://" + app.directory.appendingPathComponent("test.sqlite").path
            c.issuer = "http://127.0.0.1:9"
            c.cognitoAPI = true
            let report = await Doctor.run(configuration: c, logger: Self.logger)
            #expect(report.finding("cognito-api.srp")?.severity == .ok, "\(report.rendered)")
            // The pool id and client id the server generated and kept are the ones to give the apps.
            let ids = try #require(report.finding("cognito-api.ids")?.summary)
            #expect(ids.contains("PoolId is us-east-1_") && ids.contains("AppClientId gh"), "\(ids)")
            #expect(report.finding("cognito-api.pool-id")?.severity == .warning)
            #expect(report.finding("cognito-api.endpoint")?.severity == .warning, "plain http cannot be reached by Amplify Swift")
            c.poolID = "eu-west-1_Fixed1"
            c.issuer = "https://auth.example.com"
            let fixed = await Doctor.run(configuration: c, logger: Self.logger)
            #expect(fixed.finding("cognito-api.ids")?.summary.contains("PoolId is eu-west-1_Fixed1") == true)
            #expect(fixed.finding("cognito-api.pool-id") == nil && fixed.finding("cognito-api.endpoint") == nil)
        }
        var off = GatehouseConfiguration()
        off.dataDirectory = app.directory.path
        #expect(await Doctor.run(configuration: off, logger: Self.logger).finding("cognito-api.ids") == nil)
    }

    @Test func theHostedUISaysWhereToRegisterAndWhatHTTPBreaks() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("doctor-hosted-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: directory) }
        var c = GatehouseConfiguration()
        c.dataDirectory = directory.path
        c.issuer = "http://auth.example.com"
        c.hostedUI = true
        c.callbackURLs = ["myapp://callback"]
        c.googleWebClientID = "web"
        c.googleWebClientSecret = "secret"
        let report = await Doctor.run(configuration: c, logger: Self.logger)
        #expect(report.finding("hosted-ui.endpoints")?.summary.contains("myapp://callback") == true, "\(report.rendered)")
        #expect(report.finding("hosted-ui.https")?.severity == .warning)
        #expect(report.finding("hosted-ui.google")?.summary.contains("http://auth.example.com/oauth2/idpresponse") == true)
        c.issuer = "https://auth.example.com"
        #expect(await Doctor.run(configuration: c, logger: Self.logger).finding("hosted-ui.https") == nil)
        c.hostedUI = false
        #expect(await Doctor.run(configuration: c, logger: Self.logger).finding("hosted-ui.endpoints") == nil)
    }
}

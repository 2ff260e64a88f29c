import Foundation
import GatehouseAWS
import GatehouseCore
import GatehouseInfrastructure
import GatehouseServer
import GatehouseTesting
import Logging
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// moto's Cognito emulator behind `Tests/cognito/moto_shim.py` (which adds the codes, RevokeToken,
/// DeleteUser and rotation moto lacks), started once per test process. Locally, without moto the
/// Cognito suites are skipped with a note; in CI (`GATEHOUSE_REQUIRE_ALL_SUITES=1`) they fail.
final class MotoCognito: Sendable {
    let endpoint: String
    let userPoolID: String
    let clientID: String
    let jwksURL: String
    let badUserPoolID: String
    let badClientID: String
    /// The running `Tests/cognito/moto_shim.py` (kept alive with this object).
    private let server: PythonServer

    /// The shared emulator, or `nil` when moto is not installed here (and that is allowed).
    static let shared: MotoCognito? = PythonServer.emulator("Cognito", needs: "moto.cognitoidp, werkzeug") { try MotoCognito() }

    static var isAvailable: Bool { shared != nil || TestDatabase.requireAllSuites }

    private init() throws {
        server = try PythonServer(repositoryScript: "Tests/cognito/moto_shim.py")
        endpoint = try server.string("endpoint")
        userPoolID = try server.string("userPoolId")
        clientID = try server.string("clientId")
        jwksURL = try server.string("jwksUrl")
        badUserPoolID = try server.string("badUserPoolId")
        badClientID = try server.string("badClientId")
    }

    /// Settings for the well-configured pool (or the misconfigured one).
    func settings(misconfigured: Bool = false) -> CognitoSettings {
        CognitoSettings(
            userPoolID: misconfigured ? badUserPoolID : userPoolID,
            clientID: misconfigured ? badClientID : clientID,
            region: "us-east-1",
            endpoint: endpoint,
            jwksURL: jwksURL
        )
    }

    func configure(_ c: inout GatehouseConfiguration, misconfigured: Bool = false) {
        c.identityProvider = .cognito
        c.cognito = settings(misconfigured: misconfigured)
        c.awsCredentials = .init(accessKeyID: "testing", secretAccessKey: "testing")
    }

    /// The newest code the pool "mailed" to `email` for `kind` (`signup` or `reset`).
    func latestCode(_ kind: String, for email: String) async throws -> String {
        let data = try await get("/_shim/messages")
        let messages = (try StrictJSONParser().parse(Array(data))).arrayValue ?? []
        let code = messages.compactMap(\.objectValue).last { $0["kind"]?.stringValue == kind && $0["email"]?.stringValue == email }?["code"]?
            .stringValue
        return try #require(code, "no \(kind) code for \(email)")
    }

    func expireCodes() async throws {
        _ = try await get("/_shim/expire-codes")
    }

    /// Puts the user (by email or username) in `status`, including those the API cannot reach
    /// (`ARCHIVED`, `COMPROMISED`, `EXTERNAL_PROVIDER`). A test-only hook of the shim.
    func setStatus(_ status: String, of username: String) async throws {
        var request = URLRequest(url: URL(string: endpoint + "/_shim/set-status")!)
        request.httpMethod = "POST"
        request.httpBody = Data(JSONValue.object(["username": .string(username), "status": .string(status)]).serialized())
        let (_, response) = try await URLSession.shared.data(for: request)
        #expect((response as? HTTPURLResponse)?.statusCode == 204, "no user \(username) to put in \(status)")
    }

    /// How many times `operation` was called for `username` (as the caller named the user).
    func calls(_ operation: String, username: String) async throws -> Int {
        let data = try await get("/_shim/calls")
        let calls = (try StrictJSONParser().parse(Array(data))).arrayValue ?? []
        return calls.compactMap(\.objectValue).filter { $0["operation"]?.stringValue == operation && $0["username"]?.stringValue == username }.count
    }

    private func get(_ path: String) async throws -> Data {
        let (data, _) = try await URLSession.shared.data(from: URL(string: endpoint + path)!)
        return data
    }
}

extension TestApp {
    /// An app in Cognito mode against the shared emulator, on the real clock (moto stamps its tokens
    /// with the real time).
    static func cognito(
        _ moto: MotoCognito,
        database: TestDatabase = .sqlite,
        logger: Logger? = nil,
        configure: (inout GatehouseConfiguration) -> Void = { _ in }
    ) async throws -> TestApp {
        try await TestApp.make(database: database, logger: logger, realTime: true) { c in
            moto.configure(&c)
            configure(&c)
        }
    }
}

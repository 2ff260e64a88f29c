import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseServer
import GatehouseTesting
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore

/// A Gatehouse built through the real composition root, on a fresh data directory, with a test
/// clock, captured mail (or the configured transport) and fast password hashing.
struct TestApp: Sendable {
    /// Where the app's mail and texts go.
    enum Mail: Sendable {
        /// Into ``TestApp/mailer`` (a ``CapturingMailer``) and ``TestApp/texts`` (a ``CapturingSMS``),
        /// whatever `configuration.mail` and `configuration.sms` say.
        case captured
        /// Through the transports `configuration.mail` and `configuration.sms` name (SMTP, SES, SNS, the outboxes), delivered by the real
        /// delivery service in the background; `built.messageDelivery.waitUntilIdle()` waits for it.
        case configured
    }

    let built: GatehouseApplication
    let mailer: CapturingMailer
    let texts: CapturingSMS
    let clock: TestClock
    let directory: URL

    static func make(
        database: TestDatabase = .sqlite,
        logger: Logger? = nil,
        clock: TestClock = TestClock(Date()),
        realTime: Bool = false,
        backgroundKeyRefresh: Bool = true,
        deliverer: (any MailTransport)? = nil,
        mail: Mail = .captured,
        keyReloadInterval: Duration = .seconds(60),
        configure: (inout GatehouseConfiguration) -> Void = { _ in }
    ) async throws -> TestApp {
        let (url, directory) = database.freshURL()
        var configuration = GatehouseConfiguration()
        configuration.dataDirectory = directory.path
        configuration.databaseURL = url
        configuration.host = "127.0.0.1"
        configuration.port = 0
        configuration.issuer = "http://gatehouse.test"
        configuration.clientID = "test-client"
        configuration.scrypt = .init(logN: 4)
        configuration.hashingConcurrency = 2
        configure(&configuration)
        let mailer = CapturingMailer()
        let texts = CapturingSMS()
        var quiet = Logger(label: "gatehouse-test")
        quiet.logLevel = .warning
        let built = try await buildApplication(
            configuration: configuration,
            overrides: .init(
                clock: realTime ? SystemTimeSource() : clock,
                mailTransport: mail == .configured ? nil : deliverer ?? mailer,
                smsTransport: mail == .configured ? nil : texts,
                logger: logger ?? quiet,
                refreshProviderKeysInBackground: backgroundKeyRefresh,
                keyReloadInterval: keyReloadInterval
            )
        )
        mailer.attach { built.messageDelivery }
        texts.attach { built.messageDelivery }
        return TestApp(built: built, mailer: mailer, texts: texts, clock: clock, directory: directory)
    }

    /// Runs `body` against the router (no socket).
    func router<T: Sendable>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await built.app.test(.router, body)
    }

    /// Runs `body` against a real server on an ephemeral loopback port.
    func live<T: Sendable>(_ body: @escaping @Sendable (any TestClientProtocol) async throws -> T) async throws -> T {
        defer { try? FileManager.default.removeItem(at: directory) }
        return try await built.app.test(.live, body)
    }
}

/// A decoded response.
struct Reply: Sendable {
    let status: HTTPResponse.Status
    let headers: HTTPFields
    let bodyText: String
    var json: JSONValue? { try? StrictJSONParser().parse(Array(bodyText.utf8)) }
    var object: [String: JSONValue] { json?.objectValue ?? [:] }
    var errorCode: String? { object["error"]?.objectValue?["code"]?.stringValue }
    subscript(_ key: String) -> JSONValue? { object[key] }
    func string(_ key: String) -> String { object[key]?.stringValue ?? "" }
}

extension TestClientProtocol {
    func send(
        _ method: HTTPRequest.Method,
        _ path: String,
        json: JSONValue? = nil,
        raw: String? = nil,
        bytes: [UInt8]? = nil,
        contentType: String? = "application/json",
        bearer: String? = nil,
        headers extra: HTTPFields = [:]
    ) async throws -> Reply {
        var headers = extra
        if let contentType, json != nil || raw != nil || bytes != nil { headers[.contentType] = contentType }
        if let bearer { headers[.authorization] = "Bearer \(bearer)" }
        var body: ByteBuffer?
        if let json { body = ByteBuffer(bytes: json.serialized()) }
        if let raw { body = ByteBuffer(string: raw) }
        if let bytes { body = ByteBuffer(bytes: bytes) }
        return try await execute(uri: path, method: method, headers: headers, body: body) { response in
            Reply(status: response.status, headers: response.headers, bodyText: String(buffer: response.body))
        }
    }

    /// Signs up, confirms with the mailed code and signs in.
    func signedIn(
        _ app: TestApp,
        email: String = "alice@example.com",
        password: String = "correct horse 9",
        name: String? = "Alice"
    ) async throws -> Reply {
        try await signedIn(mailedBy: [app], email: email, password: password, name: name)
    }

    /// As ``signedIn(_:email:password:name:)`` on instances sharing one database: whichever instance's
    /// dispatcher claimed the sign-up mail delivered it, so the code is looked for in each one's mailer.
    func signedIn(
        mailedBy apps: [TestApp],
        email: String = "alice@example.com",
        password: String = "correct horse 9",
        name: String? = "Alice"
    ) async throws -> Reply {
        var body: [String: JSONValue] = ["email": .string(email), "password": .string(password)]
        if let name { body["full_name"] = .string(name) }
        let signUp = try await send(.post, "/auth/signup", json: .object(body))
        guard signUp.status == .created else { throw GatehouseError.internalError(cause: "sign-up: \(signUp.status) \(signUp.bodyText)") }
        var code: String?
        for app in apps where code == nil { code = await app.mailer.latestCode(to: email, kind: "confirm_signup") }
        guard let code else { throw GatehouseError.internalError(cause: "no code mailed") }
        let confirm = try await send(.post, "/auth/confirm", json: ["email": .string(email), "code": .string(code)])
        guard confirm.status == .ok else { throw GatehouseError.internalError(cause: "confirm: \(confirm.status)") }
        return try await send(.post, "/auth/signin", json: ["email": .string(email), "password": .string(password)])
    }
}

import Foundation
import GatehouseMessaging
import GatehouseTesting
import Testing

/// Three real `gatehouse` processes on one private PostgreSQL cluster behind nginx (round robin), and a
/// fake Google issuer: a deployment of issue 14's shape on loopback. Tests drive it over HTTP only.
final class Fleet: @unchecked Sendable {
    static let schema = "fleet"
    static let googleClient = "fleet-google-client"
    static let password = "correct horse 9"

    let postgres: PrivatePostgres
    let issuer: FakeIssuer
    let root: URL
    private(set) var instances: [ServerProcess]
    let balancer: NginxBalancer
    let probe = HTTPProbe()

    /// Whether nginx, PostgreSQL and the binary are here; records an issue when every suite must run.
    static func prerequisites() -> (binary: URL, postgres: URL)? {
        guard let binary = ServerProcess.requireBinary() else { return nil }
        guard NginxBalancer.isInstalled, let postgres = PrivatePostgres.binaries() else {
            let message = "the fleet tests need Debian's nginx and postgresql packages (apt-get install nginx-light postgresql)"
            if TestDatabase.requireAllSuites {
                Issue.record(Comment(rawValue: message))
            } else {
                FileHandle.standardError.write(Data("note: skipped: \(message)\n".utf8))
            }
            return nil
        }
        return (binary, postgres)
    }

    /// Starts the fleet, runs `body`, and tears everything down (also when `body` throws).
    static func run(instances count: Int = 3, _ body: @escaping @Sendable (Fleet) async throws -> Void) async throws {
        guard let (binary, postgresBinaries) = prerequisites() else { return }
        try await FakeIssuer.run { issuer in
            let postgres = try await PrivatePostgres(bin: postgresBinaries)
            let root = URL(fileURLWithPath: NSTemporaryDirectory()).appendingPathComponent("gh-fleet-\(UUID().uuidString.prefix(8))")
            var started: [ServerProcess] = []
            var fleet: Fleet?
            do {
                let environment = Self.environment(postgres: postgres, issuer: issuer)
                // Started together on the empty database: they migrate once, under the advisory lock.
                try await withThrowingTaskGroup(of: ServerProcess.self) { group in
                    for index in 0..<count {
                        group.addTask {
                            try await ServerProcess(
                                binary: binary,
                                dataDirectory: root.appendingPathComponent("instance\(index)/data"),
                                environment: environment,
                                name: "instance\(index)"
                            )
                        }
                    }
                    for try await process in group { started.append(process) }
                }
                started.sort { $0.log.path < $1.log.path }
                let balancer = try await NginxBalancer(upstreams: started.map(\.port))
                fleet = Fleet(postgres: postgres, issuer: issuer, root: root, instances: started, balancer: balancer)
                try await body(fleet!)
            } catch {
                for process in started { FileHandle.standardError.write(Data(Self.tail(of: process.log).utf8)) }
                fleet?.balancer.stop()
                for process in started { process.kill() }
                await postgres.destroy()
                throw error
            }
            fleet?.balancer.stop()
            for process in started { process.kill() }
            await postgres.destroy()
            if ProcessInfo.processInfo.environment["GATEHOUSE_KEEP_FLEET"] == nil { try? FileManager.default.removeItem(at: root) }
        }
    }

    private init(postgres: PrivatePostgres, issuer: FakeIssuer, root: URL, instances: [ServerProcess], balancer: NginxBalancer) {
        self.postgres = postgres
        self.issuer = issuer
        self.root = root
        self.instances = instances
        self.balancer = balancer
    }

    /// One deployment's settings, the same on every instance (docs/several-instances.md).
    static func environment(postgres: PrivatePostgres, issuer: FakeIssuer) -> [String: String] {
        [
            "GATEHOUSE_DATABASE_URL": postgres.url(schema: schema, options: "&pool_size=8&acquire_timeout=2&query_timeout=4"),
            "GATEHOUSE_MASTER_KEY": Data(repeating: 42, count: 32).base64EncodedString(),
            "GATEHOUSE_ISSUER": "http://fleet.test",
            "GATEHOUSE_TRUSTED_PROXIES": "127.0.0.1",
            "GATEHOUSE_GOOGLE_CLIENT_IDS": googleClient,
            "GATEHOUSE_GOOGLE_JWKS_URL": issuer.googleJWKSURL,
            "GATEHOUSE_SCRYPT_LOG_N": "10",
            "GATEHOUSE_MAIL_RETRY_BASE": "1",
        ]
    }

    static func tail(of log: URL) -> String {
        let text = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
        return "--- \(log.lastPathComponent)\n" + text.split(separator: "\n").suffix(30).joined(separator: "\n") + "\n"
    }

    // MARK: Requests

    /// Through the balancer.
    func send(
        _ method: String,
        _ path: String,
        json: [String: String]? = nil,
        bearer: String? = nil,
        client: String? = nil
    ) async
        -> HTTPProbe.Reply
    {
        await probe.send(method, balancer.baseURL + path, json: json, bearer: bearer, client: client)
    }

    /// Straight to instance `index`, around the balancer.
    func send(
        to index: Int,
        _ method: String,
        _ path: String,
        json: [String: String]? = nil,
        bearer: String? = nil
    ) async
        -> HTTPProbe.Reply
    {
        await probe.send(method, "http://127.0.0.1:\(instances[index].port)\(path)", json: json, bearer: bearer)
    }

    /// The newest code of `kind` mailed to `email`, from whichever instance's outbox delivered it.
    func code(for email: String, kind: String = "confirm_signup") async throws -> String {
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            var newest: (Date, String)?
            for index in instances.indices {
                let outbox = root.appendingPathComponent("instance\(index)/data/outbox")
                for name in (try? FileManager.default.contentsOfDirectory(atPath: outbox.path)) ?? [] where name.hasSuffix("-\(kind).eml") {
                    let file = outbox.appendingPathComponent(name)
                    guard let text = try? String(contentsOf: file, encoding: .utf8), text.contains("To: \(email)") || text.contains("<\(email)>"),
                        let code = CapturingMailer.code(in: text.replacingOccurrences(of: "\r\n", with: "\n")),
                        let date = (try? FileManager.default.attributesOfItem(atPath: file.path))?[.modificationDate] as? Date
                    else { continue }
                    if newest == nil || date > newest!.0 { newest = (date, code) }
                }
            }
            if let newest { return newest.1 }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw ServerProcess.TestFailure("no \(kind) mail to \(email) in any outbox")
    }

    /// Signs up, confirms with the mailed code and signs in, each through the balancer; the tokens.
    func signedIn(_ email: String) async throws -> (access: String, refresh: String) {
        let signup = await send("POST", "/auth/signup", json: ["email": email, "password": Self.password])
        guard signup.status == 201 else { throw ServerProcess.TestFailure("signup \(email): \(signup.status)") }
        let confirm = await send("POST", "/auth/confirm", json: ["email": email, "code": try await code(for: email)])
        guard confirm.status == 200 else { throw ServerProcess.TestFailure("confirm \(email): \(confirm.status)") }
        let tokens = await send("POST", "/auth/signin", json: ["email": email, "password": Self.password])
        guard tokens.status == 200, let access = tokens.string("access_token"), let refresh = tokens.string("refresh_token") else {
            throw ServerProcess.TestFailure("signin \(email): \(tokens.status)")
        }
        return (access, refresh)
    }

    /// `kill -9` of instance `index`.
    func kill(_ index: Int) {
        instances[index].kill()
    }

    /// Rows of `gh_users` with one of `emails`.
    func accounts(_ emails: [String]) async throws -> Int {
        guard !emails.isEmpty else { return 0 }
        let list = emails.map { "'\($0)'" }.joined(separator: ",")
        return Int(try await postgres.sql("SELECT count(*) FROM \(Self.schema).gh_users WHERE email IN (\(list))")) ?? -1
    }
}

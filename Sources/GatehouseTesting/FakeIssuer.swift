import Crypto
import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Stands in for Apple's and Google's servers, which tests cannot reach: mints Apple- and
/// Google-shaped ID tokens with any header and claims, serves both JWKS documents and Apple's
/// `/auth/token`, `/auth/revoke` and `/auth/authorize` on an ephemeral loopback port, and records
/// what it received. Each provider has its own keys, as the real ones do.
public final class FakeIssuer: Sendable {
    public enum Provider: String, Sendable { case google, apple }

    public struct Records: Sendable {
        public var jwksFetches: [String: Int] = [:]
        public var tokenRequests: [[String: String]] = []
        public var revokeRequests: [[String: String]] = []
        public var authorizeQueries: [[String: String]] = []
    }

    public struct Behaviour: Sendable {
        /// JWKS answers 503.
        public var jwksDown = false
        /// `/auth/token` and `/auth/revoke` answer 503.
        public var appleDown = false
        /// `/auth/token` answers 400 with this error.
        public var tokenError: String?
        public var jwksMaxAge = 3600
    }

    public let port: Int
    /// The time tokens are minted at (``follow(_:)`` can change it).
    private let clockBox: LockedBox<any TimeSource>
    var clock: any TimeSource { clockBox.withLock { $0 } }
    private let keys: LockedBox<[Provider: [SigningKey]]>
    private let records = LockedBox(Records())
    private let behaviour = LockedBox(Behaviour())
    private let counter = LockedBox(0)
    /// Apple authorization codes and whose they are (``appleCode(for:)``).
    private let appleCodes = LockedBox<[String: String]>([:])

    init(port: Int, clock: any TimeSource, keys: [Provider: [SigningKey]]) {
        self.port = port
        self.clockBox = LockedBox(clock)
        self.keys = LockedBox(keys)
    }

    public var baseURL: String { "http://127.0.0.1:\(port)" }
    public var googleJWKSURL: String { baseURL + "/google/oauth2/v3/certs" }
    public var appleJWKSURL: String { baseURL + "/apple/auth/keys" }
    /// Base of the fake Apple token API (`/auth/token`, `/auth/revoke`, `/auth/authorize`).
    public var appleAPIURL: String { baseURL + "/apple" }

    public var recorded: Records { records.withLock { $0 } }

    /// Mints tokens at `clock`'s time from now on: an app under test on a test clock is told the
    /// same time its tokens were issued at, however long the test waited for the machine (a frozen
    /// app clock beside the wall clock refused tokens as issued in the future under load).
    /// - Parameter clock: The app's clock.
    public func follow(_ clock: any TimeSource) { clockBox.withLock { $0 = clock } }

    /// An Apple authorization code issued to `subject`: `/auth/token` answers it with an identity
    /// token for that subject, as Apple does. A code the fake never issued is someone else's: its
    /// identity token names another subject.
    /// - Parameter subject: The Apple user the code belongs to.
    /// - Returns: The code.
    public func appleCode(for subject: String) -> String {
        let code = "apple-code-\(subject)-\(UUID().uuidString.prefix(8))"
        appleCodes.withLock { $0[code] = subject }
        return code
    }

    /// The `c_hash` Apple puts in an identity token issued with `code`: the left half of its SHA-256, base64url.
    /// - Parameter code: The authorization code.
    /// - Returns: The claim's value.
    public static func codeHash(_ code: String) -> String {
        Base64URL.encode(Array(Array(SHA256.hash(data: Array(code.utf8))).prefix(16)))
    }
    public func update(_ change: (inout Behaviour) -> Void) { behaviour.withLock { change(&$0) } }
    public func signingKey(_ provider: Provider) -> SigningKey { keys.withLock { $0[provider]!.last! } }

    /// Adds a new key to a provider's set (a rotation); new tokens are signed with it.
    @discardableResult
    public func rotateKey(_ provider: Provider, kid: String) throws -> SigningKey {
        let key = try SigningKey.generate(use: .idToken, kid: kid, now: clock.now())
        keys.withLock { $0[provider, default: []].append(key) }
        return key
    }

    // MARK: Tokens

    /// The claims a real token of `provider` carries.
    package func standardClaims(
        _ provider: Provider,
        audience: String,
        subject: String,
        email: String?,
        emailVerified: Bool = true,
        nonce: String? = nil,
        name: String? = nil
    ) -> [String: JSONValue] {
        let now = clock.now().epochSeconds
        var claims: [String: JSONValue] = [
            "aud": .string(audience), "sub": .string(subject), "iat": .number(Double(now)), "exp": .number(Double(now + 600)),
        ]
        switch provider {
        case .google:
            claims["iss"] = "https://accounts.google.com"
            claims["azp"] = .string(audience)
            if let email {
                claims["email"] = .string(email)
                claims["email_verified"] = .bool(emailVerified)
            }
            if let name { claims["name"] = .string(name) }
        case .apple:
            claims["iss"] = "https://appleid.apple.com"
            claims["auth_time"] = .number(Double(now))
            claims["nonce_supported"] = .bool(true)
            if let email {
                claims["email"] = .string(email)
                claims["email_verified"] = .string(emailVerified ? "true" : "false")  // Apple sends strings
                claims["is_private_email"] = .string(email.hasSuffix("privaterelay.appleid.com") ? "true" : "false")
            }
        }
        if let nonce { claims["nonce"] = .string(Digests.sha256Hex(nonce)) }
        return claims
    }

    /// A signed token. `claims` and `header` entries replace the defaults; `nil` values remove them.
    package func token(
        _ provider: Provider,
        claims: [String: JSONValue],
        changing: [String: JSONValue?] = [:],
        header: [String: JSONValue?] = [:],
        signedWith key: SigningKey? = nil
    ) -> String {
        let signer = key ?? signingKey(provider)
        var body = claims
        for (name, value) in changing { body[name] = value }
        var head: [String: JSONValue] = ["alg": "RS256", "kid": .string(signer.kid), "typ": "JWT"]
        for (name, value) in header { head[name] = value }
        return CompactJWS.encode(header: .object(head), claims: .object(body)) { try! signer.sign($0) }
    }

    /// The usual case: a valid token for `audience`.
    public func token(
        _ provider: Provider,
        audience: String,
        subject: String,
        email: String?,
        emailVerified: Bool = true,
        nonce: String? = nil,
        name: String? = nil
    ) -> String {
        token(
            provider,
            claims: standardClaims(
                provider,
                audience: audience,
                subject: subject,
                email: email,
                emailVerified: emailVerified,
                nonce: nonce,
                name: name
            )
        )
    }

    // MARK: Server

    /// Starts the fake on 127.0.0.1 (an ephemeral port), runs `body`, and stops it.
    public static func run<T: Sendable>(
        clock: any TimeSource = SystemTimeSource(),
        _ body: @escaping @Sendable (FakeIssuer) async throws -> T
    ) async throws -> T {
        let keys: [Provider: [SigningKey]] = [
            .google: [try SigningKey.generate(use: .idToken, kid: "google-key-1", now: clock.now())],
            .apple: [try SigningKey.generate(use: .idToken, kid: "apple-key-1", now: clock.now())],
        ]
        let (ports, portContinuation) = AsyncStream.makeStream(of: Int.self)
        let holder = LockedBox<FakeIssuer?>(nil)
        let router = Router()
        var logger = Logger(label: "fake-issuer")
        logger.logLevel = .warning
        @Sendable func issuer() throws -> FakeIssuer {
            guard let issuer = holder.withLock({ $0 }) else { throw HTTPError(.serviceUnavailable) }
            return issuer
        }
        router.get("/google/oauth2/v3/certs") { _, _ in try issuer().jwks(.google) }
        router.get("/apple/auth/keys") { _, _ in try issuer().jwks(.apple) }
        router.post("/apple/auth/token") { request, _ in try await issuer().tokenEndpoint(request) }
        router.post("/apple/auth/revoke") { request, _ in try await issuer().revokeEndpoint(request) }
        router.get("/apple/auth/authorize") { request, _ in
            let query = Dictionary(request.uri.queryParameters.map { (String($0.key), String($0.value)) }, uniquingKeysWith: { a, _ in a })
            try issuer().records.withLock { $0.authorizeQueries.append(query) }
            return "Apple sign-in page (fake)"
        }
        let app = Application(
            router: router,
            configuration: .init(address: .hostname("127.0.0.1", port: 0)),
            onServerRunning: { channel in portContinuation.yield(channel.localAddress?.port ?? 0) },
            logger: logger
        )
        let group = ServiceGroup(configuration: .init(services: [app], gracefulShutdownSignals: [], logger: logger))
        return try await withThrowingTaskGroup(of: Void.self) { tasks in
            tasks.addTask { try await group.run() }
            var iterator = ports.makeAsyncIterator()
            guard let port = await iterator.next() else { throw HTTPError(.internalServerError) }
            let issuer = FakeIssuer(port: port, clock: clock, keys: keys)
            holder.withLock { $0 = issuer }
            do {
                let result = try await body(issuer)
                await group.triggerGracefulShutdown()
                try await tasks.waitForAll()
                return result
            } catch {
                await group.triggerGracefulShutdown()
                throw error
            }
        }
    }

    func jwks(_ provider: Provider) throws -> Response {
        let current = behaviour.withLock { $0 }
        records.withLock { $0.jwksFetches[provider.rawValue, default: 0] += 1 }
        if current.jwksDown { return Response(status: .serviceUnavailable) }
        let document = JSONValue.object(["keys": .array(try keys.withLock { $0[provider] ?? [] }.map { try $0.publicJWK() })])
        return Response(
            status: .ok,
            headers: [.contentType: "application/json", .cacheControl: "public, max-age=\(current.jwksMaxAge)"],
            body: .init(byteBuffer: ByteBuffer(bytes: document.serialized()))
        )
    }

    func form(_ request: Request) async throws -> [String: String] {
        var request = request
        let text = String(buffer: try await request.collectBody(upTo: 64 * 1024))
        var fields: [String: String] = [:]
        for pair in text.split(separator: "&") {
            let kv = pair.split(separator: "=", maxSplits: 1).map {
                String($0).replacingOccurrences(of: "+", with: " ").removingPercentEncoding ?? ""
            }
            fields[kv[0]] = kv.count > 1 ? kv[1] : ""
        }
        return fields
    }

    func tokenEndpoint(_ request: Request) async throws -> Response {
        let fields = try await form(request)
        records.withLock { $0.tokenRequests.append(fields) }
        let current = behaviour.withLock { $0 }
        if current.appleDown { return Response(status: .serviceUnavailable) }
        if let error = current.tokenError {
            return Response(
                status: .badRequest,
                headers: [.contentType: "application/json"],
                body: .init(byteBuffer: ByteBuffer(string: #"{"error":"\#(error)"}"#))
            )
        }
        let n = counter.withLock {
            $0 += 1
            return $0
        }
        let owner = appleCodes.withLock { $0[fields["code"] ?? ""] } ?? "someone-else"
        let idToken = token(.apple, claims: standardClaims(.apple, audience: fields["client_id"] ?? "", subject: owner, email: nil))
        let body: JSONValue = [
            "access_token": .string("apple-access-\(n)"), "token_type": "Bearer", "expires_in": 3600, "refresh_token": .string("apple-refresh-\(n)"),
            "id_token": .string(idToken),
        ]
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: body.serialized())))
    }

    func revokeEndpoint(_ request: Request) async throws -> Response {
        let fields = try await form(request)
        records.withLock { $0.revokeRequests.append(fields) }
        return Response(status: behaviour.withLock { $0.appleDown } ? .serviceUnavailable : .ok)
    }
}

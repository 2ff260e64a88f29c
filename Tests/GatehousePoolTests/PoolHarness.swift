import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseServer
import GatehouseStore
import GatehouseTesting
import HummingbirdTesting
import Logging

/// The use cases of an app built by the one composition root (`buildApplication`), on the embedded
/// pool over a real store (SQLite file, or PostgreSQL), with a test clock, fast hashing, captured mail
/// delivered when read, and no HTTP. Tests drive the use cases (``passwords``, ``sessions``,
/// ``accounts``, ``profiles``), so the policy they own is exercised with the pool's.
struct PoolHarness: Sendable {
    let built: GatehouseApplication
    let store: SQLStore
    let pool: EmbeddedUserPool
    let passwords: PasswordAuthentication
    let sessions: Sessions
    let accounts: Accounts
    let profiles: Profiles
    let domainEvents: DomainEvents
    let limiter: RateLimiter
    let clock: TestClock
    let mailer: CapturingMailer
    /// Where the pool's texts go (read through the app's dispatcher, like ``mailer``).
    let texts: CapturingSMS
    /// Phone sign-in over ``pool``, texting US, Canadian, British and German numbers.
    let phone: PhoneSignIn
    let stepUp: StepUp
    let liveness: CachedSessionLiveness
    /// Makes and opens the pool's SRP verifiers (pool id `us-east-1_PoolTest1`).
    let srpVerifiers: SRPVerifiers
    /// The database, for another app over the same store and keys (``sibling(logN:_:)``).
    let databaseURL: String
    /// The clock's time when the app was made (``reset()`` sets it back).
    let startedAt: Date
    let logger = Logger(label: "pool-test")
    let client = ClientInfo(address: "198.51.100.7")
    /// Every harness shares this master key, so a sibling opens what another sealed.
    static let masterKey = Data(repeating: 1, count: 32).base64EncodedString()

    /// Runs `body` with a fresh app (one for this test alone), for tests whose settings, hasher or
    /// store are their own; the others share their suite's app (``shared``).
    static func run<T: Sendable>(
        database: TestDatabase = .sqlite,
        settings: PoolSettings = PoolSettings(),
        logN: Int = 4,
        stepUpMaxAge: TimeInterval? = nil,
        hasher: (@Sendable (ScryptPasswordHasher) -> any PasswordHasher)? = nil,
        databaseURL sharedURL: String? = nil,
        clock: TestClock = TestClock(),
        _ body: @escaping @Sendable (PoolHarness) async throws -> T
    ) async throws -> T {
        let (freshURL, directory) = database.freshURL()
        defer { try? FileManager.default.removeItem(at: directory) }
        let harness = try await make(
            databaseURL: sharedURL ?? freshURL,
            directory: directory,
            settings: settings,
            logN: logN,
            stepUpMaxAge: stepUpMaxAge,
            hasher: hasher,
            clock: clock
        )
        // Running the app starts the store and does the start-up (migrations, keys) before `body`.
        return try await harness.built.app.test(.router) { _ in try await body(harness) }
    }

    /// One app per database for a suite's tests with the default settings, kept running and reset
    /// before each test (``reset()``); a suite holds it in a `static let`.
    static func shared() -> SharedApps<PoolHarness> {
        SharedApps(
            start: { database in
                let (url, directory) = database.freshURL()
                TemporaryDirectories.removeAtExit(directory)
                let harness = try await make(databaseURL: url, directory: directory)
                let _: Bool = try await KeptRunning.start { body in
                    try await harness.built.app.test(.router) { _ in try await body(true) }
                }
                return harness
            },
            reset: { harness in try await harness.reset() }
        )
    }

    /// Makes the app answer as a new one would: an empty store (start-up's rows stay), no captured
    /// mail or texts, working transports, and the clock back at its start.
    func reset() async throws {
        try await SharedApps<Self>.resetCaptures(mailer: mailer, texts: texts, clock: clock, to: startedAt) {
            try await built.resetForTests()
        }
    }

    private static func make(
        databaseURL url: String,
        directory: URL,
        settings: PoolSettings = PoolSettings(),
        logN: Int = 4,
        stepUpMaxAge: TimeInterval? = nil,
        hasher: (@Sendable (ScryptPasswordHasher) -> any PasswordHasher)? = nil,
        clock: TestClock = TestClock()
    ) async throws -> PoolHarness {
        var c = GatehouseConfiguration()
        c.dataDirectory = directory.path
        c.databaseURL = url
        c.masterKey = masterKey
        c.issuer = "https://auth.test"
        c.clientID = "client-1"
        c.poolID = "us-east-1_PoolTest1"
        c.pool = settings
        c.scrypt = .init(logN: logN)
        c.hashingConcurrency = 2
        // Generous queue bounds: the pool's own tests exercise them; here they would hide the limiter.
        c.hashingLimits = .init(maxQueued: 10_000, perLane: 10_000, maxWait: 300)
        c.stepUpMaxAge = stepUpMaxAge
        c.smsCountries = SMSCountryPolicy(allowedCountries: ["US", "CA", "GB", "DE"])
        let mailer = CapturingMailer()
        let texts = CapturingSMS()
        var quiet = Logger(label: "pool-test-app")
        quiet.logLevel = .warning
        let built = try await buildApplication(
            configuration: c,
            overrides: .init(
                clock: clock,
                mailTransport: mailer,
                smsTransport: texts,
                logger: quiet,
                refreshProviderKeysInBackground: false,
                // Mail goes out when a test reads it (the mailer settles the dispatcher first), so tests
                // that drive their own dispatchers over this store are not raced.
                deliverInBackground: false,
                hasher: hasher,
                initialSigningKeys: [FixedKeys.idKey, FixedKeys.accessKey]
            )
        )
        mailer.attach { built.messageDelivery }
        texts.attach { built.messageDelivery }
        let pool = try require(built.provider as? EmbeddedUserPool, "the embedded pool")
        let useCases = built.useCases
        let harness = PoolHarness(
            built: built,
            store: built.store,
            pool: pool,
            passwords: useCases.passwords,
            sessions: useCases.sessions,
            accounts: useCases.accounts,
            profiles: useCases.profiles,
            domainEvents: useCases.domainEvents,
            limiter: useCases.limiter,
            clock: clock,
            mailer: mailer,
            texts: texts,
            phone: useCases.phone,
            stepUp: useCases.stepUp,
            liveness: built.liveness,
            srpVerifiers: built.srpVerifiers,
            databaseURL: url,
            startedAt: clock.now()
        )
        return harness
    }

    /// Runs `body` with another app over the same store and keys, e.g. with other hashing parameters.
    func sibling<T: Sendable>(logN: Int, _ body: @escaping @Sendable (PoolHarness) async throws -> T) async throws -> T {
        try await Self.run(logN: logN, databaseURL: databaseURL, clock: clock, body)
    }

    /// Signs up and confirms `email`, then signs in.
    @discardableResult
    func confirmedUser(_ email: String = "alice@example.com", password: String = "correct horse 9") async throws -> AuthTokens {
        _ = try await passwords.signUp(email: email, password: password, fullName: "Alice", client: client, logger: logger)
        let code = try require(await mailer.latestCode(to: email, kind: "confirm_signup"))
        try await passwords.confirmSignUp(email: email, code: code, client: client, logger: logger)
        return try await passwords.signIn(email: email, password: password, client: client, logger: logger)
    }

    func me(_ tokens: AuthTokens) async throws -> Principal {
        try await sessions.authenticate(bearer: tokens.accessToken, logger: logger)
    }
}

func require<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw GatehouseError.internalError(cause: message) }
    return value
}

extension GatehouseError.Code {
    static func of(_ error: any Error) -> GatehouseError.Code? { (error as? GatehouseError)?.code }
}

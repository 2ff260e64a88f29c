import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseMessaging
import GatehouseStore
import GatehouseTesting
import Logging

/// The use cases over an embedded pool on a real store (SQLite file, or PostgreSQL), with a test
/// clock, fast hashing and captured mail. Tests drive the use cases (``passwords``, ``sessions``,
/// ``accounts``, ``profiles``), so the policy they own is exercised with the pool's.
struct PoolHarness: Sendable {
    let store: SQLStore
    let pool: EmbeddedUserPool
    let passwords: PasswordAuthentication
    let sessions: Sessions
    let accounts: Accounts
    /// Profiles without a cache (each read goes to the store).
    let profiles: Profiles
    let domainEvents: DomainEvents
    let limiter: RateLimiter
    let clock: TestClock
    let mailer: CapturingMailer
    /// Where the pool's texts go (read through the dispatcher, like ``mailer``).
    let texts: CapturingSMS
    /// Phone sign-in over ``pool``, texting +1, +44 and +49 numbers.
    let phone: PhoneSignIn
    let stepUp: StepUp
    /// Delivers the mail queue, on demand through ``mailer``.
    let dispatcher: DeliveryDispatcher
    let liveness: CachedSessionLiveness
    /// Builds another pool over the same store and keys, e.g. with other hashing parameters.
    let makePool: @Sendable (_ logN: Int) -> EmbeddedUserPool
    let logger = Logger(label: "pool-test")
    let client = ClientInfo(address: "198.51.100.7")

    static func run<T: Sendable>(
        database: TestDatabase = .sqlite,
        settings: PoolSettings = PoolSettings(),
        logN: Int = 4,
        stepUpMaxAge: TimeInterval? = nil,
        hasher makeHasher: (@Sendable (ScryptPasswordHasher) -> any PasswordHasher)? = nil,
        _ body: @escaping @Sendable (PoolHarness) async throws -> T
    ) async throws -> T {
        try await database.withStore { store in
            let clock = TestClock()
            let mailer = CapturingMailer()
            let texts = CapturingSMS()
            let box = try SecretBox(masterKey: Array(repeating: 1, count: 32))
            let wakeUp = DeliveryWakeUp()
            let dispatcher = DeliveryDispatcher(
                store: store,
                box: box,
                channels: [
                    MailChannel(renderer: try MailRenderer(appName: settings.appName, from: "Gatehouse <no-reply@example.com>"), transport: mailer),
                    SMSChannel(appName: settings.appName, transport: texts),
                ],
                clock: clock,
                random: SystemRandomSource(),
                settings: MailDeliverySettings(),
                wakeUp: wakeUp,
                logger: Logger(label: "pool-test-mail")
            )
            // Mail goes out when a test reads it (the mailer settles the dispatcher first); no background
            // loop, so tests that drive their own dispatchers over this store are not raced.
            mailer.attach { dispatcher }
            texts.attach { dispatcher }
            let refreshKey = try await RefreshSuccessorKey.load(secrets: store.secrets, box: box, random: SystemRandomSource())
            let keys = try await SigningKeyManager(secrets: store.secrets, box: box, clock: clock, random: SystemRandomSource()).bootstrap(
                logger: Logger(label: "t")
            )
            let tokens = TokenService(
                settings: TokenSettings(issuer: "https://auth.test", clientID: "client-1"),
                keyring: Keyring(keys),
                clock: clock,
                random: SystemRandomSource()
            )
            let liveness = CachedSessionLiveness(source: EmbeddedUserPool.livenessSource(store: store), clock: clock, ttl: 5)
            let makePool: @Sendable (Int) -> EmbeddedUserPool = { logN in
                // Generous queue bounds: the pool's own tests exercise them; here they would hide the limiter.
                let hashing = BlockingWorkPool(label: "t", width: 2, limits: .init(maxQueued: 10_000, perLane: 10_000, maxWait: 300)).start()
                let scrypt = ScryptPasswordHasher(parameters: .init(logN: logN), pool: hashing)
                return EmbeddedUserPool(
                    settings: settings,
                    store: store,
                    hasher: makeHasher?(scrypt) ?? scrypt,
                    tokens: tokens,
                    mail: DeliveryEnqueuer(box: box, random: SystemRandomSource(), wakeUp: wakeUp),
                    box: box,
                    clock: clock,
                    random: SystemRandomSource(),
                    liveness: liveness,
                    refreshKey: refreshKey
                )
            }
            let events = DomainEvents(subscribers: [CacheInvalidation(liveness: liveness, profiles: nil)])
            let limiter = RateLimiter(store: store, box: box, clock: clock, settings: settings.rateLimits)
            let pool = makePool(logN)
            let passwords = PasswordAuthentication(strategy: pool, limiter: limiter, events: NoAuthEvents(), domainEvents: events)
            let stepUp = StepUp(strategy: pool, passwords: passwords, clock: clock, maxAge: stepUpMaxAge)
            return try await body(
                PoolHarness(
                    store: store,
                    pool: pool,
                    passwords: passwords,
                    sessions: Sessions(strategy: pool, limiter: limiter, events: NoAuthEvents(), domainEvents: events),
                    accounts: Accounts(strategy: pool, appleVault: nil, domainEvents: events, stepUp: stepUp),
                    profiles: Profiles(store: store, strategy: pool, clock: clock, domainEvents: events),
                    domainEvents: events,
                    limiter: limiter,
                    clock: clock,
                    mailer: mailer,
                    texts: texts,
                    phone: PhoneSignIn(
                        strategy: pool,
                        policy: SMSCountryPolicy(allowedCountries: ["US", "CA", "GB", "DE"]),
                        limiter: limiter,
                        events: NoAuthEvents(),
                        domainEvents: events,
                        stepUp: stepUp
                    ),
                    stepUp: stepUp,
                    dispatcher: dispatcher,
                    liveness: liveness,
                    makePool: makePool
                )
            )
        }
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

    /// The password use case over another pool (e.g. from ``makePool``), publishing to the same events.
    func passwords(over other: EmbeddedUserPool) -> PasswordAuthentication {
        PasswordAuthentication(strategy: other, limiter: limiter, events: NoAuthEvents(), domainEvents: domainEvents)
    }
}

func require<T>(_ value: T?, _ message: String = "missing value") throws -> T {
    guard let value else { throw GatehouseError.internalError(cause: message) }
    return value
}

extension GatehouseError.Code {
    static func of(_ error: any Error) -> GatehouseError.Code? { (error as? GatehouseError)?.code }
}

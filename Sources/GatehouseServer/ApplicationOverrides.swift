import GatehouseCore
import GatehouseMessaging
import Logging

/// What the package's tests replace when they build the app through ``buildApplication(configuration:overrides:)``;
/// `gatehouse serve` uses the defaults.
package struct ApplicationOverrides: Sendable {
    package var clock: any TimeSource
    package var random: any RandomSource
    /// A mail transport to use instead of the configured one (tests capture mail with it).
    package var mailTransport: (any MailTransport)?
    /// An SMS transport to use instead of the configured one (tests capture texts with it).
    package var smsTransport: (any SMSTransport)?
    package var logger: Logger?
    /// Called with the bound port once the server listens.
    package var onServerRunning: (@Sendable (Int) async -> Void)?
    /// Whether the providers' key sets are fetched at start and kept fresh in the background (on in
    /// production; tests that script a provider outage turn it off so only requests fetch).
    package var refreshProviderKeysInBackground: Bool
    /// Whether queued mail and texts are delivered in the background (off: they go out when a test
    /// reads them, through ``GatehouseApplication/messageDelivery``, so tests that drive their own
    /// dispatchers over the store are not raced).
    package var deliverInBackground: Bool
    /// Wraps the password hasher (tests count hashes with it).
    package var hasher: (@Sendable (ScryptPasswordHasher) -> any PasswordHasher)?
    /// The signing keys a new store starts with (`FixedKeys` in tests: RSA generation is slow).
    package var initialSigningKeys: [SigningKey]
    /// How often the signing keys are read again from the store, whatever was announced (a minute in
    /// production; tests that prove an announcement or a reconnection reloads them push it out of reach).
    package var keyReloadInterval: Duration

    package init(
        clock: any TimeSource = SystemTimeSource(),
        random: any RandomSource = SystemRandomSource(),
        mailTransport: (any MailTransport)? = nil,
        smsTransport: (any SMSTransport)? = nil,
        logger: Logger? = nil,
        onServerRunning: (@Sendable (Int) async -> Void)? = nil,
        refreshProviderKeysInBackground: Bool = true,
        deliverInBackground: Bool = true,
        hasher: (@Sendable (ScryptPasswordHasher) -> any PasswordHasher)? = nil,
        initialSigningKeys: [SigningKey] = [],
        keyReloadInterval: Duration = .seconds(60)
    ) {
        self.clock = clock
        self.random = random
        self.mailTransport = mailTransport
        self.smsTransport = smsTransport
        self.logger = logger
        self.onServerRunning = onServerRunning
        self.refreshProviderKeysInBackground = refreshProviderKeysInBackground
        self.deliverInBackground = deliverInBackground
        self.hasher = hasher
        self.initialSigningKeys = initialSigningKeys
        self.keyReloadInterval = keyReloadInterval
    }
}

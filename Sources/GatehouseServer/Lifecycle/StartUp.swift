import Foundation
import GatehouseCore
import GatehouseMessaging
import GatehouseStore
import Logging

/// The I/O `serve` does once before answering requests, in `beforeServerStarts`, on objects
/// `buildApplication` already made: the data directory, the master key, the outboxes, the store
/// (opened, migrated or checked, pinned to the master key), the client id, the signing keys and the
/// refresh successor key.
struct StartUp: Sendable {
    let configuration: GatehouseConfiguration
    let store: SQLStore
    /// The store's URL without its password, for the log.
    let storeDescription: String
    let box: SecretBox
    let client: AppClient
    let pool: UserPoolID
    let keyring: Keyring
    let refreshKey: RefreshSuccessorKey
    /// The signing keys a new store starts with (tests); empty: new ones.
    let initialSigningKeys: [SigningKey]
    let mailTransport: any MailTransport
    let smsTransport: any SMSTransport
    /// Whether tests replaced the transports (the log then names them, not the configured target).
    let transportsOverridden: (mail: Bool, sms: Bool)
    let clock: any TimeSource
    let logger: Logger

    /// Runs the start-up steps.
    /// - Throws: ``ConfigurationError`` for a bad master key, pending migrations with auto-migrate off,
    ///   or a master key that does not match the database's; the file system's or the store's error
    ///   otherwise.
    func run() async throws {
        try FileManager.default.createDirectory(
            atPath: configuration.dataDirectory,
            withIntermediateDirectories: true,
            attributes: [.posixPermissions: 0o700]
        )
        try box.load(masterKey: try Bootstrap.masterKey(configuration, logger: logger))
        try (mailTransport as? OutboxTransport)?.createDirectory()
        try (smsTransport as? SMSOutboxTransport)?.createDirectory()
        try await store.open()
        try await Bootstrap.prepare(
            store: store,
            configuration: configuration,
            box: box,
            client: client,
            pool: pool,
            keyring: keyring,
            refreshKey: refreshKey,
            initialSigningKeys: initialSigningKeys,
            clock: clock,
            logger: logger
        )
        logger.info("store ready", metadata: ["store": .string(storeDescription)])
        let signer = keyring.snapshot.accessSigner
        logger.info("token signing ready", metadata: ["alg": .string(signer.algorithm.rawValue), "signer": .string(signer.signerName)])
        let mailTarget = transportsOverridden.mail ? mailTransport.name : configuration.mail.redacted
        logger.info("mail delivery ready", metadata: ["mail.transport": .string(mailTransport.name), "mail.target": .string(mailTarget)])
        let smsTarget = transportsOverridden.sms ? smsTransport.name : configuration.sms.redacted
        logger.info(
            "sms delivery ready",
            metadata: [
                "sms.transport": .string(smsTransport.name), "sms.target": .string(smsTarget),
                "sms.phone_sign_in": .stringConvertible(configuration.smsCountries.isEnabled),
            ]
        )
    }
}

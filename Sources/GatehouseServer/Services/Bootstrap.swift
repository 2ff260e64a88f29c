import Foundation
import GatehouseCore
import GatehouseStore
import Logging

/// What `serve` does once before answering requests (in `beforeServerStarts`, see ``StartUp``): the
/// master key, the schema, the client id and the signing keys. The same steps back `gatehouse keys`.
enum Bootstrap {
    /// The master key: `GATEHOUSE_MASTER_KEY`, or `<data dir>/master.key`, created once on first start
    /// (0600) and after that only read (``MasterKeyFile``).
    static func masterKey(_ configuration: GatehouseConfiguration, logger: Logger) throws -> [UInt8] {
        if let configured = configuration.masterKey {
            guard let bytes = Data(base64Encoded: configured), bytes.count == 32 else {
                throw ConfigurationError("GATEHOUSE_MASTER_KEY must be 32 bytes in base64 (e.g. `openssl rand -base64 32`).")
            }
            return Array(bytes)
        }
        let directory = URL(fileURLWithPath: configuration.dataDirectory)
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        let file = directory.appendingPathComponent("master.key")
        return try MasterKeyFile.loadOrCreate(at: file.path, newKey: { SystemRandomSource().bytes(MasterKeyFile.length) }, logger: logger)
    }

    /// Migrates (or checks that nothing is pending), pins the master key to the store, settles the
    /// client id and loads or creates the signing keys (switching them to `GATEHOUSE_TOKEN_ALG` when the
    /// active ones are of the other algorithm) and the refresh successor key into their handles.
    static func prepare(
        store: SQLStore,
        configuration: GatehouseConfiguration,
        box: SecretBox,
        client: AppClient,
        pool: UserPoolID,
        keyring: Keyring,
        refreshKey: RefreshSuccessorKey,
        initialSigningKeys: [SigningKey] = [],
        clock: any TimeSource,
        logger: Logger
    ) async throws {
        if configuration.autoMigrate {
            try await store.migrate(logger: logger)
        } else {
            let pending = try await store.pendingMigrations()
            guard pending.isEmpty else {
                throw ConfigurationError(
                    "The database needs migrations (\(pending.joined(separator: ", "))). Run `gatehouse migrate`, or set GATEHOUSE_AUTO_MIGRATE=true."
                )
            }
        }
        let check = box.keyCheck
        let stored = try await store.write { tx in try await tx.insertSettingIfAbsent("master_key_check", value: check) }
        guard stored == check else {
            throw ConfigurationError(
                "The master key does not match the one this database was created with. Use the same GATEHOUSE_MASTER_KEY (or master.key file) on every instance."
            )
        }
        let generated = "gh" + SystemRandomSource().bytes(12).map { String(format: "%02x", $0) }.joined()
        let storedClientID = try await store.write { tx in try await tx.insertSettingIfAbsent("client_id", value: generated) }
        client.settle(configuration.clientID ?? storedClientID)
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789")
        let generatedPool = "us-east-1_" + String(SystemRandomSource().bytes(9).map { alphabet[Int($0) % alphabet.count] })
        let storedPoolID = try await store.write { tx in try await tx.insertSettingIfAbsent("pool_id", value: generatedPool) }
        pool.settle(configuration.poolID ?? storedPoolID)
        let manager = SigningKeyManager(
            secrets: store.secrets,
            box: box,
            clock: clock,
            random: SystemRandomSource(),
            algorithm: configuration.tokenAlgorithm
        )
        let keys = try await manager.bootstrap(logger: logger, initialKeys: initialSigningKeys, switchOverlap: configuration.signingKeyOverlap)
        keyring.replace(with: keys.snapshot)
        if keys.switched {
            // Running instances would otherwise verify the new key's tokens only at their next periodic reload.
            do { try await store.announce([.signingKeysChanged]) } catch {
                logger.warning("could not tell running instances about the new signing key", metadata: ["error": "\(error)"])
            }
        }
        try await refreshKey.load(secrets: store.secrets, box: box, random: SystemRandomSource())
    }
}

import Foundation
import GatehouseCore
import GatehouseStore
import Logging

/// `gatehouse keys list|rotate`: the signing keys, outside the server.
public enum KeyAdministration {
    public static func list(configuration: GatehouseConfiguration, logger: Logger) async throws -> [String] {
        let location = try StoreLocation(url: configuration.resolvedDatabaseURL)
        return try await location.withStore(logger: logger) { store in
            try await store.secrets.signingKeys().map { key in
                let state = key.retiredAt == nil ? "signing" : "verifying until \(key.expiresAt.map { ContractTimestamp.string($0) } ?? "?")"
                return "\(key.kid)  use=\(key.use)  alg=\(key.algorithm)  created=\(ContractTimestamp.string(key.createdAt))  \(state)"
            }
        }
    }

    /// Rotates keys. The previous key stays published for the longest token lifetime plus the JWKS
    /// cache time (and a minute of leeway), so no issued token stops verifying early.
    public static func rotate(uses: [SigningKey.Use], configuration: GatehouseConfiguration, logger: Logger) async throws -> [String] {
        let box = try SecretBox(masterKey: try Bootstrap.masterKey(configuration, logger: logger))
        let location = try StoreLocation(url: configuration.resolvedDatabaseURL)
        let overlap = configuration.signingKeyOverlap
        return try await location.withStore(logger: logger) { store in
            try await Bootstrap.prepare(
                store: store,
                configuration: configuration,
                box: box,
                client: AppClient(),
                pool: UserPoolID(),
                keyring: Keyring(),
                refreshKey: RefreshSuccessorKey(),
                clock: SystemTimeSource(),
                logger: logger
            )
            let manager = SigningKeyManager(
                secrets: store.secrets,
                box: box,
                clock: SystemTimeSource(),
                random: SystemRandomSource(),
                algorithm: configuration.tokenAlgorithm
            )
            var lines: [String] = []
            for use in uses {
                let key = try await manager.rotate(use: use, overlap: overlap, logger: logger)
                lines.append(
                    "New \(use.rawValue)-token key \(key.kid) (\(key.algorithm.rawValue)); the previous one verifies for \(Int(overlap)) more seconds."
                )
            }
            do {
                try await store.announce([.signingKeysChanged])
                lines.append(
                    store.backendName == "postgres"
                        ? "Running servers were told and sign with it now." : "A running server picks it up within a minute."
                )
            } catch {
                lines.append("Running servers could not be told (\(error)); they pick it up within a minute.")
            }
            return lines
        }
    }
}

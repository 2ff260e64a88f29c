import Logging

/// Reloads the signing keys when they were rotated elsewhere (`gatehouse keys rotate` on any host
/// announces it), so every instance signs with the new keys at once instead of at its next periodic
/// reload.
public struct SigningKeyReload: DomainEventSubscriber {
    let keys: SigningKeyManager
    let keyring: Keyring
    let logger: Logger

    /// A subscriber.
    /// - Parameters:
    ///   - keys: Loads the keys from the store.
    ///   - keyring: Where this instance signs and verifies from.
    ///   - logger: For a failed reload (the periodic one then catches up).
    public init(keys: SigningKeyManager, keyring: Keyring, logger: Logger) {
        self.keys = keys
        self.keyring = keyring
        self.logger = logger
    }

    /// Reloads on ``DomainEvent/signingKeysChanged`` (in the background: `receive` must not wait).
    /// - Parameter event: What happened.
    public func receive(_ event: DomainEvent) {
        guard case .signingKeysChanged = event else { return }
        Task { [keys, keyring, logger] in
            do {
                keyring.replace(with: try await keys.load())
                logger.info("signing keys reloaded after a rotation")
            } catch {
                logger.warning("could not reload the signing keys after a rotation", metadata: ["error": .string("\(error)")])
            }
        }
    }
}

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
        reload(after: "a rotation", level: .info)
    }

    /// Reloads each time other instances' events arrive again (the cross-instance channel listens
    /// again): a rotation or an algorithm switch announced while it was down never reaches this
    /// process, which would otherwise refuse the new key's tokens until its periodic reload, a minute away.
    /// - Parameter arrive: Whether the channel listens.
    public func remoteEvents(arrive: Bool) {
        guard arrive else { return }
        reload(after: "the event channel listens again")
    }

    /// Reloads in the background (callers must not wait).
    /// - Parameters:
    ///   - reason: For the log line ("a rotation", "the event channel listens again").
    ///   - level: The success line's level (a reconnection's is `debug`: every start-up has one).
    public func reload(after reason: String, level: Logger.Level = .debug) {
        Task { [keys, keyring, logger] in
            do {
                try await keyring.reload { try await keys.load() }
                logger.log(level: level, "signing keys reloaded", metadata: ["after": .string(reason)])
            } catch {
                logger.warning("could not reload the signing keys", metadata: ["after": .string(reason), "error": .string("\(error)")])
            }
        }
    }
}

import Foundation

/// The mail path's check for Apple's private relay: mail to a relay address whose forwarding the user
/// turned off (Apple's `email-disabled` notification) cannot arrive, so the delivery queue
/// dead-letters it at its first attempt with ``reason`` (a log line and the dead-letter metric)
/// instead of sending it and retrying. The request that queued it answered as it always does, so no
/// caller learns anything about the address from it.
public struct RelayForwardingCheck: Sendable {
    /// The dead letter's reason.
    public static let reason = "the recipient is an Apple private relay address whose forwarding the user turned off"
    let store: any GatehouseStore

    /// A check against the store's Apple identities.
    /// - Parameter store: The store.
    public init(store: any GatehouseStore) {
        self.store = store
    }

    /// Why mail to `address` must not be sent, or `nil` to send it.
    /// - Parameter address: The recipient.
    /// - Returns: ``reason`` when the address is a relay address with forwarding off.
    /// - Throws: A store error (the message is retried later).
    public func reasonNotToSend(to address: String) async throws -> String? {
        try await store.read { try await $0.isRelayForwardingOff(address: address) } ? Self.reason : nil
    }
}

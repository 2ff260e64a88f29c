import Foundation

/// What the embedded pool uses to mail: it inserts a ``MailRequest`` into the durable queue inside the
/// caller's transaction (so the message exists exactly when the code it carries does), sealed under the
/// master key, and wakes the delivery service once that transaction has committed.
public struct MailEnqueuer: Sendable {
    let box: SecretBox
    let random: any RandomSource
    let wakeUp: MailWakeUp

    /// An enqueuer.
    /// - Parameters:
    ///   - box: Seals the request (it may carry a code).
    ///   - random: Makes the time-ordered ids.
    ///   - wakeUp: The delivery service's wake-up.
    public init(box: SecretBox, random: any RandomSource, wakeUp: MailWakeUp) {
        self.box = box
        self.random = random
        self.wakeUp = wakeUp
    }

    /// Queues `request` in `tx`. With `nil`, queues a decoy instead: a row of the same size that is
    /// never sent, so an answer for an unknown address does the same work as one that mails.
    /// - Parameters:
    ///   - request: What to send, or nil for a decoy.
    ///   - now: The request's time.
    ///   - tx: The transaction that also writes the code.
    /// - Throws: The store's error (which rolls the transaction back).
    public func enqueue(_ request: MailRequest?, now: Date, in tx: any StoreTransaction) async throws {
        let id = random.uuidV7(at: now)
        let body = request ?? MailRequest(kind: .resetPassword, to: "decoy@invalid.example", code: "000000", lifetime: 900)
        let sealed = try box.seal(Array(try JSONEncoder().encode(body)), context: Self.context(id))
        try await tx.enqueueMail(
            QueuedMail(
                id: id,
                kind: body.kind.rawValue,
                state: request == nil ? .decoy : .queued,
                sealedRequest: sealed,
                attempts: 0,
                nextAttemptAt: now,
                createdAt: now
            )
        )
    }

    /// Wakes the delivery service; call after the transaction that queued mail has committed.
    public func committed() {
        wakeUp.signal()
    }

    /// The sealing context of message `id`'s request.
    static func context(_ id: String) -> String { "mail:\(id)" }
}

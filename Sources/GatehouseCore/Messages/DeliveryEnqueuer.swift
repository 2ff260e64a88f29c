import Foundation
import GatehouseInfrastructure

/// What the embedded pool uses to send mail, SMS and webhooks: it inserts a ``MailRequest``, an ``SMSRequest``
/// or a ``QueuedWebhook`` into the message queue inside the caller's transaction (so the message exists exactly when the code
/// it carries does), sealed under the master key, and wakes the delivery service once that transaction
/// has committed.
///
/// Public only because ``EmbeddedUserPool``'s initialiser takes one; what it does is `package`.
public struct DeliveryEnqueuer: Sendable {
    let box: SecretBox
    let random: any RandomSource
    let wakeUp: DeliveryWakeUp

    /// An enqueuer.
    /// - Parameters:
    ///   - box: Seals the request (it may carry a code).
    ///   - random: Makes the time-ordered ids.
    ///   - wakeUp: The delivery service's wake-up.
    package init(box: SecretBox, random: any RandomSource, wakeUp: DeliveryWakeUp) {
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
    package func enqueue(_ request: MailRequest?, now: Date, in tx: any StoreTransaction) async throws {
        let body = request ?? MailRequest(kind: .resetPassword, to: "decoy@invalid.example", code: "000000", lifetime: 900)
        try await insert(channel: "mail", kind: body.kind.rawValue, json: try JSONEncoder().encode(body), decoy: request == nil, now: now, in: tx)
    }

    /// Queues an SMS in `tx`.
    /// - Parameters:
    ///   - sms: What to send.
    ///   - now: The request's time.
    ///   - tx: The transaction that also writes the code.
    /// - Throws: The store's error (which rolls the transaction back).
    package func enqueue(sms: SMSRequest, now: Date, in tx: any StoreTransaction) async throws {
        try await insert(channel: "sms", kind: sms.kind.rawValue, json: try JSONEncoder().encode(sms), decoy: false, now: now, in: tx)
    }

    func insert(channel: String, kind: String, json: Data, decoy: Bool, now: Date, in tx: any StoreTransaction) async throws {
        let id = Self.makeID(now: now, random: random)
        let sealed = try box.seal(Array(json), context: QueuedMessage.sealingContext(.message, id: id))
        try await tx.enqueueMessage(
            QueuedMessage(
                id: id,
                channel: channel,
                kind: kind,
                state: decoy ? .decoy : .queued,
                sealedRequest: sealed,
                sealing: .message,
                attempts: 0,
                nextAttemptAt: now,
                createdAt: now
            )
        )
    }

    /// Wakes the delivery service; call after the transaction that queued a message has committed.
    package func committed() {
        wakeUp.signal()
    }

    private static let sequence = LockedBox<UInt64>(0)

    /// A time-ordered id: the milliseconds, a per-process sequence (so messages queued in one
    /// millisecond keep their order), and random bits (so instances never collide). Also the
    /// `Message-ID`'s left part.
    /// - Parameters:
    ///   - now: The request's time.
    ///   - random: The random bits.
    /// - Returns: `<13 digits>-<8 hex digits>-<random>`.
    static func makeID(now: Date, random: any RandomSource) -> String {
        let milliseconds = UInt64(max(0, now.timeIntervalSince1970 * 1000))
        let step = sequence.withLock { value -> UInt64 in
            value &+= 1
            return value
        }
        let ms = String(milliseconds)
        let seq = String(step & 0xFFFF_FFFF, radix: 16)
        return String(repeating: "0", count: max(0, 13 - ms.count)) + ms + "-" + String(repeating: "0", count: 8 - seq.count) + seq + "-"
            + random.token(bytes: 9)
    }
}

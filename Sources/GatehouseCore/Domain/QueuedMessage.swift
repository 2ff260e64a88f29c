import Foundation

/// One message in the durable queue (`gh_messages`): a mail, an SMS or a webhook delivery, told apart
/// by its ``channel``. A request inserts it in the transaction that writes the code it carries; the
/// delivery service claims it with a lease, sends it and records the outcome.
public struct QueuedMessage: Sendable, Equatable {
    /// Where a message is in its life.
    public enum State: String, Sendable {
        /// Waiting for its next attempt (or being sent under a lease).
        case queued
        /// Delivered; the body is gone, the row stays for the retention period.
        case sent
        /// Given up on (a permanent failure, or too many attempts); the body is gone.
        case dead
        /// Written for an unknown address so that every answer does the same work; never sent.
        case decoy
    }

    /// The sealing context's prefix a body was sealed under (the row's `sealing_context`).
    public enum Sealing: String, Sendable {
        /// `message:<id>`: what this version writes.
        case message
        /// `mail:<id>`: what versions before migration 18 wrote, and what an older instance still
        /// writes during a rolling upgrade; read, never written.
        case mail
    }

    /// A time-ordered id (also the `Message-ID`'s left part, and the webhook's `webhook-id`).
    public var id: String
    /// The delivery channel that sends it: `mail`, `sms` or `webhook`.
    public var channel: String
    /// The ``MailRequest/Kind``, ``SMSRequest/Kind`` or ``WebhookEvent`` raw value, for logs and metrics.
    public var kind: String
    /// Where it is.
    public var state: State
    /// The request (``MailRequest``, ``SMSRequest`` or ``QueuedWebhook``) as JSON, sealed under
    /// ``sealingContext``; `nil` once sent or dead.
    public var sealedRequest: String?
    /// Which context ``sealedRequest`` was sealed under.
    public var sealing: Sealing
    /// Attempts made so far.
    public var attempts: Int
    /// When the next attempt is due.
    public var nextAttemptAt: Date
    /// When it was queued.
    public var createdAt: Date
    /// The last failure, for operators (never the recipient or a code).
    public var lastError: String?

    /// A queue row.
    /// - Parameters:
    ///   - id: The message's id.
    ///   - channel: `mail`, `sms` or `webhook`.
    ///   - kind: What it is.
    ///   - state: Where it is.
    ///   - sealedRequest: The sealed request, if still kept.
    ///   - sealing: The context it was sealed under (``Sealing/message`` for anything queued now).
    ///   - attempts: Attempts so far.
    ///   - nextAttemptAt: When the next attempt is due.
    ///   - createdAt: When it was queued.
    ///   - lastError: The last failure.
    public init(
        id: String,
        channel: String = "mail",
        kind: String,
        state: State,
        sealedRequest: String?,
        sealing: Sealing = .message,
        attempts: Int,
        nextAttemptAt: Date,
        createdAt: Date,
        lastError: String? = nil
    ) {
        self.id = id
        self.channel = channel
        self.kind = kind
        self.state = state
        self.sealedRequest = sealedRequest
        self.sealing = sealing
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.lastError = lastError
    }

    /// The context ``sealedRequest`` opens under: `message:<id>`, or `mail:<id>` for a row an older
    /// version queued.
    package var sealingContext: String { Self.sealingContext(sealing, id: id) }

    /// The sealing context of message `id` under `sealing`.
    package static func sealingContext(_ sealing: Sealing, id: String) -> String { "\(sealing.rawValue):\(id)" }
}

import Foundation

/// One message in the durable queue (`gh_mail_queue`, which carries mail and, on channel `sms`, SMS). A
/// request inserts it in the transaction that writes the code it carries; the delivery service claims it with a lease, sends it and records the outcome.
public struct QueuedMail: Sendable, Equatable {
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

    /// A time-ordered id (also the sealing context `mail:<id>` and the `Message-ID`'s left part).
    public var id: String
    /// The delivery channel that sends it: `mail` or `sms`.
    public var channel: String
    /// The ``MailRequest/Kind`` or ``SMSRequest/Kind`` raw value, for logs and metrics.
    public var kind: String
    /// Where it is.
    public var state: State
    /// The ``MailRequest`` as JSON, sealed under context `mail:<id>`; `nil` once sent or dead.
    public var sealedRequest: String?
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
    ///   - channel: `mail` or `sms`.
    ///   - kind: What it is.
    ///   - state: Where it is.
    ///   - sealedRequest: The sealed request, if still kept.
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
        self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt
        self.createdAt = createdAt
        self.lastError = lastError
    }
}

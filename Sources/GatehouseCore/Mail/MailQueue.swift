import Foundation
import GatehouseInfrastructure
import Logging

/// Takes mail off the request path: ``send(_:logger:)`` only queues the message and returns, and
/// ``run()`` (a background service) hands each one to the real mailer in order. So no answer waits
/// on delivery, and an answer that mails takes as long as one that does not (no user enumeration by
/// timing).
///
/// The queue is in memory and bounded: a message still queued when the process dies is lost, and
/// past ``capacity`` a message is dropped with an error log line. (A durable queue in the store
/// replaces this when real delivery lands.)
public final class MailQueue: Mailer {
    private struct Envelope: Sendable {
        var message: MailMessage
        var logger: Logger
    }

    private struct State {
        var pending = 0
        var idleWaiters: [CheckedContinuation<Void, Never>] = []
    }

    private let deliverer: any Mailer
    private let stream: AsyncStream<Envelope>
    private let continuation: AsyncStream<Envelope>.Continuation
    private let state = Mutex(State())
    /// Messages that may wait at once.
    public let capacity: Int

    /// - Parameters:
    ///   - deliverer: The mailer that really sends (the outbox, SMTP, …).
    ///   - capacity: Messages that may wait at once.
    public init(deliverer: any Mailer, capacity: Int = 10_000) {
        self.deliverer = deliverer
        self.capacity = max(1, capacity)
        (stream, continuation) = AsyncStream.makeStream(of: Envelope.self, bufferingPolicy: .bufferingOldest(max(1, capacity)))
    }

    /// Queues `message` and returns at once.
    /// - Parameters:
    ///   - message: The message.
    ///   - logger: The request's logger; delivery logs with it, so its line carries the request id.
    /// - Throws: Never: a full or stopped queue drops the message with an error log line instead, so a
    ///   request never fails (or takes longer) because of mail.
    public func send(_ message: MailMessage, logger: Logger) async throws {
        state.withLock { $0.pending += 1 }
        switch continuation.yield(Envelope(message: message, logger: logger)) {
        case .enqueued: break
        case .dropped:
            logger.error("mail queue full; a message was dropped", metadata: ["mail.kind": .string(message.kind)])
            finishOne()
        case .terminated:
            logger.error("mail queue stopped (shutting down); a message was dropped", metadata: ["mail.kind": .string(message.kind)])
            finishOne()
        @unknown default:
            finishOne()
        }
    }

    /// Delivers queued messages until the task is cancelled; a failed delivery is logged (never who
    /// to or the code) and the queue goes on.
    public func run() async {
        for await envelope in stream {
            do {
                try await deliverer.send(envelope.message, logger: envelope.logger)
            } catch {
                envelope.logger.error(
                    "mail delivery failed",
                    metadata: ["mail.kind": .string(envelope.message.kind), "error": .string(String(describing: type(of: error)))]
                )
            }
            finishOne()
            if Task.isCancelled { break }
        }
    }

    /// Stops taking messages; ``run()`` delivers what is queued and returns.
    public func finish() {
        continuation.finish()
    }

    /// Messages queued or being delivered.
    public var pending: Int { state.withLock { $0.pending } }

    /// Returns once every message queued so far has been delivered (or failed).
    public func waitUntilIdle() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let idle = state.withLock { state -> Bool in
                if state.pending == 0 { return true }
                state.idleWaiters.append(waiter)
                return false
            }
            if idle { waiter.resume() }
        }
    }

    private func finishOne() {
        let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.pending -= 1
            guard state.pending == 0 else { return [] }
            defer { state.idleWaiters.removeAll() }
            return state.idleWaiters
        }
        for waiter in waiters { waiter.resume() }
    }
}

import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging

/// Delivers the durable message queue — mail, SMS and webhooks — in the background: claims due messages of its channels
/// under a lease, hands each to its ``DeliveryChannel`` to render and send, and records each outcome —
/// sent (body dropped), retried with exponential back-off (transient failures), or dead-lettered with a
/// log line and a metric (a permanent failure, too many attempts, or a code that expired before it could
/// be delivered).
///
/// Delivery is at least once: a message is marked sent only after the transport accepted it, so a crash
/// between the two sends it again once its lease has run out (one duplicate per crash at most).
public final class DeliveryDispatcher: Sendable {
    private let store: any GatehouseStore
    private let box: SecretBox
    private let channels: [String: any DeliveryChannel]
    private let clock: any TimeSource
    private let random: any RandomSource
    /// How the queue is worked through.
    public let settings: DeliverySettings
    private let wakeUp: DeliveryWakeUp
    private let observer: any DeliveryObserver
    private let logger: Logger
    private let inFlight = LockedBox(InFlight())
    private let lastPurge = LockedBox(Date.distantPast)

    private struct InFlight {
        var passes = 0
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    /// A dispatcher.
    /// - Parameters:
    ///   - store: The queue.
    ///   - box: Opens the sealed requests.
    ///   - channels: How each channel's messages are opened and sent (mail, SMS, webhooks); rows of a channel not
    ///     given are not claimed (they wait for an instance that has it).
    ///   - clock: The time source (tests move it to make retries due).
    ///   - random: Lease tokens and jitter.
    ///   - settings: Attempts, back-off, lease, poll interval, concurrency and retention.
    ///   - wakeUp: Signalled when a request queues a message.
    ///   - observer: Metrics.
    ///   - logger: For delivery lines (never the recipient or the code).
    package init(
        store: any GatehouseStore,
        box: SecretBox,
        channels: [any DeliveryChannel],
        clock: any TimeSource,
        random: any RandomSource,
        settings: DeliverySettings,
        wakeUp: DeliveryWakeUp,
        observer: any DeliveryObserver = NoDeliveryObserver(),
        logger: Logger
    ) {
        self.store = store
        self.box = box
        self.channels = Dictionary(channels.map { ($0.name, $0) }) { _, last in last }
        self.clock = clock
        self.random = random
        self.settings = settings
        self.wakeUp = wakeUp
        self.observer = observer
        self.logger = logger
    }

    /// The transports' names by channel (`mail`: `outbox`, `smtp`, `ses`; `sms`: `outbox`, `sns`).
    public var transportNames: [String: String] { channels.mapValues(\.transportName) }

    /// Closes every channel's transport (at shutdown, after the last send).
    public func shutdown() async {
        for channel in channels.values { await channel.shutdown() }
    }

    /// Works through the queue until the task is cancelled: a pass shortly after every wake-up
    /// (``DeliverySettings/wakeUpDelay``), and at least every poll interval (retries coming due, messages queued by other instances). A pass that cannot read
    /// the queue is logged and tried again at the next poll.
    public func run() async {
        while !Task.isCancelled {
            do {
                try await deliverDue()
                try await purgeIfDue()
            } catch {
                if Task.isCancelled { break }
                logger.warning("could not read the delivery queue; retrying", metadata: ["error": .string("\(error)")])
            }
            await wakeUp.wait(timeout: .milliseconds(Int(settings.pollInterval * 1000)))
            // Whatever woke us, the request that queued a message answers first (forgot and resend
            // must take as long for a registered address as for a decoy).
            try? await Task.sleep(for: .milliseconds(Int(settings.wakeUpDelay * 1000)))
        }
    }

    /// One pass: keeps up to ``DeliverySettings/concurrency`` messages in flight, claiming more as
    /// sends finish, until none is due. A slow or hung message holds only its own slot (until the
    /// transport's timeout), not the messages behind it.
    /// - Returns: How many messages were attempted.
    /// - Throws: The store's error when the queue cannot be read or updated (sends already started
    ///   finish first).
    @discardableResult
    public func deliverDue() async throws -> Int {
        beginPass()
        defer { endPass() }
        let attempted = try await withThrowingTaskGroup(of: Void.self) { group in
            var attempted = 0
            var running = 0
            var waiting: [(message: QueuedMessage, lease: String)] = []
            var drained = false
            while !Task.isCancelled {
                while running < settings.concurrency {
                    if waiting.isEmpty, !drained {
                        let claimed = try await claim(limit: settings.concurrency - running)
                        drained = claimed.isEmpty
                        waiting = claimed
                    }
                    guard !waiting.isEmpty else { break }
                    let next = waiting.removeFirst()
                    group.addTask { await self.attempt(next.message, lease: next.lease) }
                    running += 1
                    attempted += 1
                }
                guard running > 0 else { break }
                try await group.next()
                running -= 1
            }
            return attempted
        }
        let counts = try await store.read { try await $0.messageQueueCounts() }
        observer.queueDepth(queued: counts.queued, dead: counts.dead)
        return attempted
    }

    /// Claims up to `limit` due messages under a new lease.
    private func claim(limit: Int) async throws -> [(message: QueuedMessage, lease: String)] {
        let now = clock.now()
        let lease = random.token(bytes: 12)
        let leaseUntil = now.addingTimeInterval(settings.lease)
        let channels = self.channels.keys.sorted()
        let claimed = try await store.write { tx in
            try await tx.claimDueMessages(now: now, lease: lease, leaseUntil: leaseUntil, limit: limit, channels: channels)
        }
        return claimed.map { ($0, lease) }
    }

    /// Returns once nothing is due and no pass is running (tests: "the mail of the request just made has
    /// been delivered or has failed").
    public func waitUntilIdle() async {
        while true {
            await passesDrained()
            guard (try? await deliverDue()) == 0 else { continue }
            if inFlight.withLock({ $0.passes == 0 }) { return }
        }
    }

    /// Hands `message` back to the queue, due now and with its attempts unchanged: it was not this
    /// instance's to send (no channel here) or the send was cut off by shutdown, not refused.
    private func release(_ message: QueuedMessage, lease: String, at now: Date, reason: String) async {
        await record("release") {
            try await $0.rescheduleMessage(id: message.id, lease: lease, attempts: message.attempts, nextAttemptAt: now, at: now, error: reason)
        }
    }

    private func attempt(_ message: QueuedMessage, lease: String) async {
        let now = clock.now()
        let attempts = message.attempts + 1
        var metadata: Logger.Metadata = [
            "message.id": .string(message.id), "message.kind": .string(message.kind), "message.channel": .string(message.channel),
            "message.attempt": .stringConvertible(attempts),
        ]
        guard let channel = channels[message.channel] else {
            // Not claimed by channel (see claim); kept for the instance that has the channel.
            await release(message, lease: lease, at: now, reason: "no sender here")
            return
        }
        let delivery: QueuedDelivery
        do {
            guard let sealed = message.sealedRequest else { throw DeliveryError(.permanent, "the message body is gone") }
            delivery = try channel.open(Data(box.open(sealed, context: message.sealingContext)), id: message.id)
        } catch {
            await deadLetter(message, lease: lease, attempts: attempts, reason: "the queued message cannot be read (\(type(of: error)))")
            return
        }
        // A message whose code has expired is not sent, on a retry or after a backlog (the user has asked
        // for a new one by now, and a text costs money).
        if let lifetime = delivery.codeLifetime, now > message.createdAt.addingTimeInterval(lifetime) {
            await deadLetter(message, lease: lease, attempts: attempts, reason: "its code expired before it could be delivered")
            return
        }
        do {
            try await delivery.send(now)
        } catch {
            if Task.isCancelled {
                // Shutting down mid-send: not the message's fault. Release it for the next start.
                logger.info("\(message.channel) delivery interrupted by shutdown; it stays queued", metadata: metadata)
                await release(message, lease: lease, at: now, reason: "interrupted")
                return
            }
            let failure = error as? DeliveryError ?? DeliveryError(.transient, "\(type(of: error)): \(error)")
            metadata["error"] = .string(failure.description)
            if failure.kind == .permanent || attempts >= settings.maxAttempts {
                let reason = failure.kind == .permanent ? failure.description : "\(attempts) attempts failed; last: \(failure.description)"
                await deadLetter(message, lease: lease, attempts: attempts, reason: reason)
                return
            }
            let delay = settings.retryDelay(afterAttempts: attempts, jitter: Double(random.uniform(below: 1000)) / 1000)
            metadata["message.retry_in_s"] = .stringConvertible(Int(delay.rounded()))
            logger.warning("\(message.channel) delivery failed; will retry", metadata: metadata)
            observer.retried(kind: message.kind)
            await record("reschedule") {
                try await $0.rescheduleMessage(
                    id: message.id,
                    lease: lease,
                    attempts: attempts,
                    nextAttemptAt: now.addingTimeInterval(delay),
                    at: now,
                    error: failure.description
                )
            }
            return
        }
        await record("mark sent") { try await $0.markMessageSent(id: message.id, lease: lease, at: self.clock.now()) }
        observer.delivered(kind: message.kind)
        logger.info("\(message.channel) delivered", metadata: metadata.merging(["message.transport": .string(channel.transportName)]) { $1 })
    }

    private func deadLetter(_ message: QueuedMessage, lease: String, attempts: Int, reason: String) async {
        logger.error(
            "\(message.channel) dead-lettered: it will not be sent",
            metadata: [
                "message.id": .string(message.id), "message.kind": .string(message.kind), "message.channel": .string(message.channel),
                "message.attempts": .stringConvertible(attempts),
                "reason": .string(reason),
            ]
        )
        observer.deadLettered(kind: message.kind)
        let now = clock.now()
        await record("dead-letter") { try await $0.markMessageDead(id: message.id, lease: lease, attempts: attempts, at: now, error: reason) }
    }

    /// Writes an outcome. A lost lease (another instance took the message over after ours ran out) and a
    /// store failure are logged; the message is then sent again later, never lost.
    private func record(_ what: String, _ body: @escaping @Sendable (any StoreTransaction) async throws -> Bool) async {
        do {
            if try await store.write(body) == false {
                logger.warning("message lease ran out before the outcome was recorded (\(what)); it may be sent twice")
            }
        } catch {
            logger.error("could not record a message outcome (\(what)); it will be retried", metadata: ["error": .string("\(error)")])
        }
    }

    private func purgeIfDue() async throws {
        let now = clock.now()
        guard lastPurge.withLock({ now.timeIntervalSince($0) >= 600 }) else { return }
        lastPurge.withLock { $0 = now }
        let removed = try await store.write { try await $0.purgeMessages(before: now.addingTimeInterval(-self.settings.retention)) }
        if removed > 0 { logger.info("purged old message queue rows", metadata: ["rows": .stringConvertible(removed)]) }
    }

    private func beginPass() {
        inFlight.withLock { $0.passes += 1 }
    }

    private func endPass() {
        let waiters = inFlight.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.passes -= 1
            guard state.passes == 0 else { return [] }
            defer { state.waiters.removeAll() }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    private func passesDrained() async {
        await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
            let idle = inFlight.withLock { state -> Bool in
                if state.passes == 0 { return true }
                state.waiters.append(waiter)
                return false
            }
            if idle { waiter.resume() }
        }
    }
}

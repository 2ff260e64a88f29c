import Foundation
import GatehouseCore
import GatehouseInfrastructure
import Logging
import PostgresNIO
import ServiceLifecycle

/// Carries domain events between instances sharing one PostgreSQL database: this instance's events go
/// out with `NOTIFY` (``send(_:)`` only queues; ``run()`` sends), and every instance `LISTEN`s on one
/// connection of its pool and applies the others' events (``StoreEventChannel/onRemote``).
///
/// While the listening connection is down — at start, until the first `LISTEN` succeeds, and after a
/// drop, until it is back — `onTrust` is told `false`, so the caches stop answering and every check
/// reads the store: nothing ended elsewhere is served from a stale cache. It is told `true` each time
/// the server has committed a `LISTEN` (the subscribers then catch up on what they may have missed:
/// the signing keys reload). It reconnects with back-off (0.1 s doubling to 5 s).
final class PostgresEventChannel: StoreEventChannel, Service {
    /// `gatehouse_events`, or `gh_events_<schema>` when the store lives in a schema of its own
    /// (notifications are database-wide; two deployments in one database must not hear each other).
    let channel: String
    /// NOTIFY payloads must stay under 8000 bytes; a long list of ended sessions is split.
    static let maxPayload = 7000

    private let backend: PostgresBackend
    private var client: PostgresClient { backend.client }
    private let instance: String
    private let logger: Logger
    private let outgoing: AsyncStream<DomainEvent>
    private let queue: AsyncStream<DomainEvent>.Continuation
    private let listens = LockedBox(0)
    private let handlers = LockedBox<(remote: (@Sendable ([DomainEvent]) -> Void)?, trust: (@Sendable (Bool) -> Void)?)>((nil, nil))

    init(backend: PostgresBackend, instance: String, logger: Logger) {
        self.backend = backend
        self.channel = Self.channelName(schema: backend.schema)
        self.instance = instance
        self.logger = logger
        (outgoing, queue) = AsyncStream.makeStream(of: DomainEvent.self, bufferingPolicy: .bufferingNewest(10_000))
    }

    func connect(onRemote: @escaping @Sendable ([DomainEvent]) -> Void, onTrust: @escaping @Sendable (Bool) -> Void) {
        handlers.withLock { $0 = (onRemote, onTrust) }
        onTrust(false)
    }

    var connections: Int { listens.withLock { $0 } }

    func send(_ event: DomainEvent) {
        queue.yield(event)
    }

    func run() async throws {
        await cancelWhenGracefulShutdown {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { await self.sendLoop() }
                group.addTask { await self.listenLoop() }
                await group.next()
                group.cancelAll()
            }
        }
    }

    /// One NOTIFY per event (or per slice of a long session list); a failure is logged and the event
    /// dropped — the other instances' caches then expire it by their TTL, as before this channel.
    private func sendLoop() async {
        for await event in outgoing {
            for payload in Self.payloads(event, instance: instance) {
                do {
                    // Bounded and refused on a closed connection: a NOTIFY sent as PostgreSQL went away
                    // must not stop this loop for good.
                    try await backend.notify(channel: channel, payload: payload)
                } catch {
                    logger.warning("could not notify the other instances", metadata: ["error": .string("\(error)")])
                }
            }
            if Task.isCancelled { return }
        }
    }

    private func listenLoop() async {
        var delay = Duration.milliseconds(100)
        while !Task.isCancelled {
            do {
                try await client.withConnection { connection in
                    try await connection.listen(on: self.channel) { notifications in
                        try await self.acknowledge(on: connection)
                        delay = .milliseconds(100)
                        self.trust(true)
                        self.listens.withLock { $0 += 1 }
                        self.logger.debug("listening for the other instances' events")
                        for try await notification in notifications {
                            self.receive(notification.payload)
                        }
                    }
                }
            } catch {
                if Task.isCancelled { break }
                logger.warning(
                    "lost the channel to the other instances; caches off until it is back",
                    metadata: ["error": .string("\(error)"), "retry_in_ms": .stringConvertible(delay.components.attoseconds / 1_000_000_000_000_000)]
                )
            }
            trust(false)
            try? await Task.sleep(for: delay)
            delay = min(delay * 2, .seconds(5))
        }
    }

    /// Returns once the server has committed the `LISTEN`, so a NOTIFY sent from then on reaches this
    /// connection. PostgresNIO hands the notification sequence over at the `LISTEN`'s command-complete,
    /// which can come before its implicit transaction commits (only then does the server start
    /// queueing notifications for it); a second `LISTEN` on the same channel, a no-op for the server,
    /// runs after that commit, and keeps the connection's last statement a `LISTEN` for operators
    /// reading `pg_stat_activity`.
    private func acknowledge(on connection: PostgresConnection) async throws {
        _ = try await connection.query(PostgresQuery(unsafeSQL: #"LISTEN "\#(channel)";"#), logger: logger).collect()
    }

    private func trust(_ value: Bool) {
        handlers.withLock { $0.trust }?(value)
    }

    private func receive(_ payload: String) {
        guard let separator = payload.firstIndex(of: " ") else { return }
        let sender = payload[..<separator]
        guard sender != instance, let event = DomainEvent(wire: String(payload[payload.index(after: separator)...])) else { return }
        handlers.withLock { $0.remote }?([event])
    }

    /// The channel of the store in `schema` (or the default one).
    static func channelName(schema: String?) -> String {
        schema.map { "gh_events_" + $0.prefix(53) } ?? "gatehouse_events"
    }

    /// `<instance> <event JSON>`, split so each stays under ``maxPayload``.
    static func payloads(_ event: DomainEvent, instance: String) -> [String] {
        let whole = instance + " " + event.wire
        guard whole.utf8.count > maxPayload, case .sessionsEnded(let ids) = event, ids.count > 1 else { return [whole] }
        let half = ids.count / 2
        return payloads(.sessionsEnded(ids: Array(ids[..<half])), instance: instance)
            + payloads(.sessionsEnded(ids: Array(ids[half...])), instance: instance)
    }
}

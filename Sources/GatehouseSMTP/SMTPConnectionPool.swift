import NIOCore

/// The connections of one ``SMTPTransport``: at most `size` open at once; idle ones kept for reuse
/// until they are `idleLifetime` old or the server has closed them. A `send` leases one connection (an
/// idle one, or a slot to open a new one) and gives it back; waiting `send`s queue in order.
actor SMTPConnectionPool {
    /// What a lease gives: an idle connection, or the right to open one.
    enum Lease {
        case reuse(SMTPConnection)
        case open
    }

    private let size: Int
    private let idleLifetime: Duration
    private var idle: [(connection: SMTPConnection, since: ContinuousClock.Instant)] = []
    /// Connections open or being opened, idle ones included.
    private var count = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []
    private var isShutDown = false

    init(size: Int, idleLifetime: TimeAmount) {
        self.size = size
        self.idleLifetime = .nanoseconds(idleLifetime.nanoseconds)
    }

    /// The newest usable idle connection (unless `fresh`), else a slot; waits while `size` are busy.
    /// - Parameter fresh: Never reuse: close an idle connection if that is the only way to get a slot.
    /// - Returns: The lease, or `nil` once the transport is shut down.
    func lease(fresh: Bool = false) async -> Lease? {
        while !isShutDown {
            let now = ContinuousClock.now
            idle.removeAll { entry in
                guard !entry.connection.isOpen || entry.since.duration(to: now) >= idleLifetime else { return false }
                count -= 1
                Task { await entry.connection.quit() }
                return true
            }
            if !fresh, let entry = idle.popLast() { return .reuse(entry.connection) }
            if count < size {
                count += 1
                return .open
            }
            if fresh, !idle.isEmpty {
                let oldest = idle.removeFirst().connection
                Task { await oldest.quit() }
                return .open  // its slot
            }
            await withCheckedContinuation { waiters.append($0) }
        }
        return nil
    }

    /// Returns a connection after a message: kept idle if it is still open, else closed.
    /// - Parameter connection: The connection leased or opened.
    func giveBack(_ connection: SMTPConnection) async {
        guard connection.isOpen, !isShutDown else {
            await discard(connection)
            return
        }
        idle.append((connection, .now))
        wakeOne()
    }

    /// Closes a connection (or gives up a slot whose connection could not be opened).
    /// - Parameter connection: The connection, if one was opened.
    func discard(_ connection: SMTPConnection?) async {
        count -= 1
        wakeOne()
        await connection?.quit()
    }

    /// QUITs every idle connection; leases from now on get `nil`, connections given back are closed.
    func shutdown() async {
        isShutDown = true
        let closing = idle.map(\.connection)
        idle = []
        count -= closing.count
        for waiter in waiters { waiter.resume() }
        waiters = []
        for connection in closing { await connection.quit() }
    }

    private func wakeOne() {
        if !waiters.isEmpty { waiters.removeFirst().resume() }
    }
}

import GatehouseInfrastructure

extension BlockingWorkPool {
    /// A pool whose refusals are the server's errors: 503 `unavailable` with Retry-After for a full
    /// queue or a job that waited too long, 429 `too_many_requests` for a lane at its cap.
    /// - Parameters:
    ///   - label: The pool's name (for logs).
    ///   - width: How many jobs run at once (threads).
    ///   - limits: The queue's bounds.
    ///   - niceness: The nice value used where the idle scheduling class is refused.
    package convenience init(label: String, width: Int, limits: Limits = Limits(), niceness: Int32 = 19) {
        self.init(label: label, width: width, limits: limits, niceness: niceness) { refusal in
            switch refusal {
            case .queueFull(let queued, let retryAfter):
                GatehouseError(
                    .unavailable,
                    "The server is busy. Try again shortly.",
                    retryAfter: retryAfter,
                    cause: "password hashing queue full (\(queued) waiting)"
                )
            case .laneFull(let retryAfter):
                GatehouseError.tooManyRequests(retryAfter: retryAfter)
            case .waitedTooLong:
                GatehouseError(
                    .unavailable,
                    "The server is busy. Try again shortly.",
                    retryAfter: 1,
                    cause: "password hashing job waited past its limit"
                )
            }
        }
    }
}

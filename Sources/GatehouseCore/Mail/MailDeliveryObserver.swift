/// What the delivery service reports, for metrics.
public protocol MailDeliveryObserver: Sendable {
    /// Messages waiting and dead-lettered, after each pass.
    func queueDepth(queued: Int, dead: Int)
    /// A message was delivered.
    func delivered(kind: String)
    /// An attempt failed and the message will be retried.
    func retried(kind: String)
    /// A message was given up on.
    func deadLettered(kind: String)
}

/// Reports nothing.
public struct NoMailDeliveryObserver: MailDeliveryObserver {
    /// The observer.
    public init() {}
    public func queueDepth(queued: Int, dead: Int) {}
    public func delivered(kind: String) {}
    public func retried(kind: String) {}
    public func deadLettered(kind: String) {}
}

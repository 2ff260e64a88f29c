import Synchronization

/// Why a connection failed, as its channel handler saw it, shared with the connection: a command
/// written after the channel closed fails with NIO's bare "closed", and the reason (a certificate that
/// could not be verified, say) must still decide whether the message is retried.
final class SMTPFailureRecord: Sendable {
    private let reason = Mutex<SMTPConnectionError?>(nil)

    /// The first failure recorded, if any.
    var value: SMTPConnectionError? { reason.withLock { $0 } }

    /// Records `error` unless a failure is recorded already.
    /// - Parameter error: Why the connection is unusable.
    func record(_ error: SMTPConnectionError) {
        reason.withLock { if $0 == nil { $0 = error } }
    }
}

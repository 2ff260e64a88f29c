import Foundation

/// The client's session, readable without awaiting the actor: ``GatehouseClient/currentSession`` and
/// ``GatehouseClient/currentUser`` read it synchronously. The actor writes it whenever its session changes.
final class SessionMirror: @unchecked Sendable {
    private let lock = NSLock()
    private var state: (session: Session?, user: User?, restored: Bool) = (nil, nil, false)

    func set(_ session: Session?, restored: Bool) {
        let user = session.flatMap { User(idToken: $0.idToken) }
        lock.withLock { state = (session, user, restored) }
    }

    var session: Session? { lock.withLock { state.session } }
    var user: User? { lock.withLock { state.user } }
    var restored: Bool { lock.withLock { state.restored } }
}

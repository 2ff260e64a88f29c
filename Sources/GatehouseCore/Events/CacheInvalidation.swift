/// The one place this process's caches are kept right: session liveness and profiles forget what
/// a ``DomainEvent`` made stale. (Verified access tokens are cached by their bytes and carry no
/// state that an event changes: the liveness check after verification is what ends them.)
public struct CacheInvalidation: DomainEventSubscriber {
    let liveness: CachedSessionLiveness
    let profiles: ProfileCache?

    /// Creates the subscriber.
    /// - Parameters:
    ///   - liveness: The session-liveness cache in front of the active identity provider.
    ///   - profiles: The profile cache, if profiles are cached.
    public init(liveness: CachedSessionLiveness, profiles: ProfileCache?) {
        self.liveness = liveness
        self.profiles = profiles
    }

    /// Invalidates what `event` made stale.
    /// - Parameter event: What happened.
    public func receive(_ event: DomainEvent) {
        switch event {
        case .sessionsEnded(let ids):
            liveness.invalidate(sessionIDs: ids)
        case .sessionsChanged(let sub):
            liveness.forget(sub: sub)
        case .userDeleted(let sub):
            liveness.invalidate(sub: sub)
            profiles?.invalidate(sub)
        case .profileChanged(let sub):
            profiles?.invalidate(sub)
        case .signingKeysChanged:
            break
        }
    }

    /// Whether the caches may answer: false while this instance might miss another instance's
    /// changes (its cross-instance channel is down), so every check reads the store.
    /// - Parameter value: Whether other instances' changes reach this process.
    public func setTrusted(_ value: Bool) {
        liveness.setTrusted(value)
        profiles?.setTrusted(value)
    }

    /// Distrusts (and empties) the caches while other instances' events may be missed; trusts them,
    /// empty, when they arrive again.
    /// - Parameter arrive: Whether other instances' events reach this process.
    public func remoteEvents(arrive: Bool) {
        setTrusted(arrive)
    }
}

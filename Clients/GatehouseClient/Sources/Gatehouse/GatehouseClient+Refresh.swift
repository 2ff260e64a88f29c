import Foundation

/// The refresh, one at a time in this client and, with a ``RefreshCoordinator``, across clients and processes
/// that share the store (an app and its widget in one Keychain access group, two clients in one app).
///
/// Refresh tokens rotate and a reused one ends the session, so before presenting its refresh token a client
/// re-reads the store: when another client already refreshed (or signed out), it adopts that instead. After a
/// refused refresh it re-reads again: a newer stored token means it lost a race, not the session.
extension GatehouseClient {
    /// A refresh is joined only by callers holding the same refresh token: one left over from an earlier
    /// session (a sign-in happened meanwhile) is not the new session's refresh.
    ///
    /// The refresh runs in a task of its own, so a caller's cancellation never drops an answer that holds the
    /// rotated token; the caller's wait is cancellable, though (see ``SharedRefresh``): a cancelled caller gets
    /// `.transport(URLError(.cancelled))` at once, even while the refresh waits for the coordinator's lock.
    func refreshed(from current: Session) async throws -> Session {
        let shared: SharedRefresh
        if let refreshing, refreshing.token == current.refreshToken, refreshing.shared.join() {
            shared = refreshing.shared
        } else {
            shared = SharedRefresh { shared in try await self.coordinatedRefresh(current, shared) }
            _ = shared.join()
            refreshing = (current.refreshToken, shared)
        }
        do {
            return try await shared.value()
        } catch is CancellationError {
            throw GatehouseError.transport(URLError(.cancelled))
        }
    }

    /// A lock wait that timed out or was cancelled surfaces as the transport failure it resembles (the session
    /// is kept; try again), so callers still see only ``GatehouseError``. The refresh itself (once the lock is
    /// held) runs in a task no cancellation reaches.
    private func coordinatedRefresh(_ current: Session, _ shared: SharedRefresh) async throws -> Session {
        defer { if refreshing?.shared === shared { refreshing = nil } }
        let body: @Sendable () async throws -> Session = {
            guard shared.begin() else { throw CancellationError() }  // every caller stopped waiting
            return try await Task { try await self.performRefresh(current) }.value
        }
        guard let coordinator = refreshCoordinator else { return try await body() }
        do {
            return try await coordinator.withExclusiveRefresh(body)
        } catch RefreshCoordinatorError.timedOut {
            log(.warning, "another client held the refresh lock too long; the session is kept")
            throw GatehouseError.transport(URLError(.timedOut))
        } catch is CancellationError {
            log(.info, "every caller stopped waiting for the refresh lock; nothing was sent")
            throw GatehouseError.transport(URLError(.cancelled))
        }
    }

    /// What the store holds now, when it can be read and this client has nothing newer waiting to be written.
    private func storedNow() -> Session?? {
        guard unsaved == nil, !uncleared else { return nil }
        do {
            return .some(try store.load())
        } catch {
            return nil
        }
    }

    private func performRefresh(_ current: Session) async throws -> Session {
        // This client may have moved on since the caller read its session (a refresh, an adoption, a sign-in).
        var presented = session ?? current
        if let stored = storedNow(), stored?.refreshToken != presented.refreshToken {
            // Another client or process refreshed, signed in or signed out since this one last looked.
            guard session?.refreshToken == presented.refreshToken else { throw GatehouseError.notSignedIn }
            guard let stored else {
                log(.info, "the session was ended by another client sharing the store")
                end(.signedOut)
                throw GatehouseError.notSignedIn
            }
            log(.info, "adopting the session another client sharing the store refreshed")
            adopt(stored)
            presented = stored
        }
        if presented.refreshToken != current.refreshToken {
            rekeyRefresh(from: current.refreshToken, to: presented.refreshToken)
            if !presented.isExpiring(at: now(), leeway: configuration.refreshLeeway) { return presented }
        }
        do {
            let body = ["refresh_token": presented.refreshToken]
            let (new, _) = try sessionFrom(try await call("POST", "/auth/refresh", body: body), previous: presented)
            // A sign-out (or a new sign-in) while the refresh was in flight wins, in this client ...
            guard session?.refreshToken == presented.refreshToken else { throw GatehouseError.notSignedIn }
            // ... and in another one sharing the store: then the rotated session is not written back.
            if let stored = storedNow(), stored?.refreshToken != presented.refreshToken {
                guard let stored else {
                    log(.info, "another client sharing the store signed out during the refresh")
                    end(.signedOut)
                    throw GatehouseError.notSignedIn
                }
                log(.info, "another client sharing the store signed in during the refresh; adopting its session")
                adopt(stored)
                return stored
            }
            keep(new)
            log(.info, "refreshed the session")
            hub.emit(AuthStateChange(event: .tokenRefreshed, session: new))
            return new
        } catch let error as GatehouseError where error.code == .invalidGrant {
            guard session?.refreshToken == presented.refreshToken else { throw error }
            if let stored = storedNow(), let stored, stored.refreshToken != presented.refreshToken {
                // Lost a race with another client sharing the store: its rotation is the session now.
                log(.info, "another client refreshed first; adopting its session")
                adopt(stored)
                return stored
            }
            log(.warning, "the server refused the refresh token (invalid_grant)")
            end(.sessionExpired)
            throw error
        }
    }

    /// The refresh under way presents `new` now (it adopted a newer session), so callers holding `new` join it.
    private func rekeyRefresh(from old: String, to new: String) {
        guard let refreshing, refreshing.token == old else { return }
        self.refreshing = (new, refreshing.shared)
    }

    /// Takes a session another client wrote to the store (nothing to write back).
    private func adopt(_ stored: Session) {
        session = stored
        loaded = true
        hub.emit(AuthStateChange(event: .tokenRefreshed, session: stored))
    }
}

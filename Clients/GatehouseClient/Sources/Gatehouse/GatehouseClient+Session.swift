import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The session: refresh (one at a time), sign-out, authorised requests, and where the stored session lives.
extension GatehouseClient {
    // MARK: Session

    /// Refreshes now (sharing a refresh already under way). `invalid_grant` ends the session.
    /// There is rarely a need to: ``validAccessToken()`` and ``send(_:)`` refresh ahead of expiry.
    ///
    /// - Returns: The new session (already stored); ``AuthEvent/tokenRefreshed`` is emitted.
    /// - Throws: ``GatehouseError``: `notSignedIn`; `storage` when the store refused the new session (it is
    ///   kept in memory and used, and the write is retried on every later call); `invalidGrant` when the server refused the refresh token
    ///   (the session is cleared and ``AuthEvent/sessionExpired`` emitted: show sign-in); a transport failure
    ///   keeps the session, so try again later.
    @discardableResult
    public func refresh() async throws -> Session {
        guard let current = try loadedSession() else { throw GatehouseError.notSignedIn }
        let new = try await refreshed(from: current)
        if unsaved == new, let failure = flushUnsaved() { throw GatehouseError.storage(failure) }
        return new
    }

    /// A valid access token: the stored one, or a refreshed one when it is about to expire.
    /// Use it for requests you send yourself; ``send(_:)`` does this and the retry after a 401 for you.
    ///
    /// - Returns: An access token with more than ``Configuration/refreshLeeway`` seconds left.
    /// - Throws: ``GatehouseError``: `notSignedIn`, `invalidGrant` (the session ended), or a transport failure
    ///   from the refresh (the session is kept).
    public func validAccessToken() async throws -> String {
        guard let current = try loadedSession() else { throw GatehouseError.notSignedIn }
        if current.isExpiring(at: now(), leeway: configuration.refreshLeeway) {
            return try await refreshed(from: current).accessToken
        }
        return current.accessToken
    }

    /// Signs out: the server ends the session; locally the session is gone whatever the network says.
    /// Emits ``AuthEvent/signedOut``; without a session it does nothing.
    ///
    /// - Throws: ``GatehouseError/storage(_:)`` when the ``TokenStore`` cannot be read, or cannot delete the
    ///   session (the session has ended all the same: in memory, for listeners and on the server; the deletion
    ///   is retried on the next call). Network failures are ignored.
    public func signOut() async throws {
        guard let current = try loadedSession() else { return }
        await exclusively { await self.end(.signedOut) }
        _ = try? await call("POST", "/auth/signout", body: ["refresh_token": current.refreshToken])
        if let failure = flushUncleared() { throw GatehouseError.storage(failure) }
    }

    /// Ends every session of the user on every device, then this one locally (emitting ``AuthEvent/signedOut``).
    ///
    /// - Throws: ``GatehouseError``: `notSignedIn`, a transport failure (nothing ended; the user is still signed
    ///   in here), or `invalidGrant` (the session had already ended and is cleared).
    public func signOutEverywhere() async throws {
        _ = try await authorized("POST", "/auth/signout/all", body: nil)
        if let failure = await exclusively({ await self.end(.signedOut) }) { throw GatehouseError.storage(failure) }
    }

    /// Sends a request to your own API with the bearer token; after a 401 that refuses the token (see below) it
    /// refreshes once and retries. A 401 counts as a refused token when its body has no contract code or the
    /// code `unauthorized`; any other code (such as `invalid_credentials`) is returned as it is.
    ///
    /// When the retry's fresh token is refused too, refreshing again would only rotate the refresh token on
    /// every call, so the session ends (cleared, ``AuthEvent/sessionExpired``, as for `invalid_grant`) and the
    /// call throws ``ErrorCode/unauthorized``: show sign-in. No further request is sent.
    ///
    /// A 429 or 503 with a short `Retry-After` is waited out and retried (``Configuration/maxRetryAfter``).
    ///
    /// - Parameters:
    ///   - request: The request to your API; its `Authorization` header is set here.
    ///   - kind: Which token to attach: the access token (default), or the ID token for backends that verify
    ///     ID tokens (the seeds' FastAPI servers). Both are refreshed together.
    /// - Returns: Your API's answer, whatever its status (a 401 that is not a token refusal included).
    /// - Throws: ``GatehouseError``: `notSignedIn`, `invalidGrant` (the session ended), `unauthorized` (the
    ///   refreshed token was refused too: the session ended), or a transport failure; your API's own error
    ///   statuses are returned, not thrown.
    public func send(_ request: URLRequest, token kind: BearerToken = .access) async throws -> (Data, HTTPURLResponse) {
        let token = try await validToken(kind)
        var first = request
        first.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization")
        let (data, response) = try await transmit(first)
        guard Self.isTokenRejection(data, response) else { return (data, response) }
        let fresh = try await refreshAfterRejection(of: token, kind)
        var second = request
        second.setValue("Bearer \(fresh)", forHTTPHeaderField: "Authorization")
        let (retryData, retryResponse) = try await transmit(second)
        guard Self.isTokenRejection(retryData, retryResponse) else { return (retryData, retryResponse) }
        throw await endAfterRefusal(of: fresh, kind, ServerError.decode(retryData, retryResponse))
    }

    /// The token a refresh just issued was refused as well: ends the session (unless it has moved on meanwhile,
    /// to a sign-in or another refresh) and returns the error to throw, always ``ErrorCode/unauthorized``.
    private func endAfterRefusal(of fresh: String, _ kind: BearerToken, _ refusal: ServerError) async -> GatehouseError {
        if await exclusively({ await self.endIfHeld(fresh, kind) }) {
            log(.warning, "the server refused a freshly refreshed token too; the session ended")
        }
        var error = refusal
        error.code = .unauthorized
        return .server(error)
    }

    private func endIfHeld(_ token: String, _ kind: BearerToken) -> Bool {
        guard let session, (kind == .id ? session.idToken : session.accessToken) == token else { return false }
        end(.sessionExpired)  // a store that refuses the deletion is retried before the next use
        return true
    }

    private func validToken(_ kind: BearerToken) async throws -> String {
        guard kind == .id else { return try await validAccessToken() }
        _ = try await validAccessToken()
        guard let current = try loadedSession() else { throw GatehouseError.notSignedIn }
        return current.idToken
    }

    // MARK: Session internals

    private struct TokenResponse: Decodable {
        var idToken: String
        var accessToken: String
        var refreshToken: String
        var expiresIn: Double
        var isNewUser: Bool?
    }

    func loadedSession() throws -> Session? {
        if !loaded {
            do {
                session = try store.load()
            } catch {
                throw GatehouseError.storage(StorageFailure(.load, error))
            }
            loaded = true
        }
        flushUncleared()
        flushUnsaved()
        return session
    }

    /// Makes `new` the session: in memory first, whatever the store does, then written to the store
    /// (tried twice; a failed write is retried on every later call, see ``flushUnsaved()``).
    ///
    /// - Returns: The store's failure when the write did not succeed yet.
    @discardableResult
    func keep(_ new: Session) -> StorageFailure? {
        session = new
        loaded = true
        unsaved = new
        uncleared = false
        return flushUnsaved()
    }

    /// Writes a session the store refused before, if there is one.
    @discardableResult
    func flushUnsaved() -> StorageFailure? {
        guard let pending = unsaved else { return nil }
        var failure: StorageFailure?
        for _ in 0..<2 {
            do {
                try store.save(pending)
                unsaved = nil
                return nil
            } catch {
                failure = StorageFailure(.save, error)
            }
        }
        if let failure { log(.warning, "\(failure.description); the session is kept in memory and written again later") }
        return failure
    }

    /// Ends the session: in memory and to listeners first, then in the store. A refused deletion is retried
    /// before the next use (see ``flushUncleared()``) and never stands in the way of the event.
    ///
    /// - Returns: The store's failure when the deletion did not succeed yet.
    @discardableResult
    func end(_ event: AuthEvent) -> StorageFailure? {
        session = nil
        loaded = true
        unsaved = nil
        refreshing = nil
        uncleared = true
        hub.emit(AuthStateChange(event: event, session: nil))
        return flushUncleared()
    }

    /// Deletes a stored session the store refused to delete before, if there is one.
    @discardableResult
    func flushUncleared() -> StorageFailure? {
        guard uncleared else { return nil }
        do {
            try store.clear()
            uncleared = false
            return nil
        } catch {
            let failure = StorageFailure(.clear, error)
            log(.warning, "\(failure.description); deleting again before the next use")
            return failure
        }
    }

    func sessionFrom(_ data: Data, previous: Session? = nil) throws -> (Session, Bool?) {
        let tokens = try decode(TokenResponse.self, data)
        let session = Session(
            idToken: tokens.idToken,
            accessToken: tokens.accessToken,
            refreshToken: tokens.refreshToken,
            // Whole seconds, rounded down: it survives any store's round trip exactly and errs early.
            expiresAt: Date(timeIntervalSince1970: (now().timeIntervalSince1970 + tokens.expiresIn).rounded(.down)),
            signInMethod: previous?.signInMethod  // a refresh keeps how the session was made
        )
        return (session, tokens.isNewUser)
    }

    /// Starts the session a sign-in by `method` (`nil` when unknown) returned.
    func begin(_ data: Data, _ method: SignInMethod?) async throws -> SignInResult {
        var (made, isNewUser) = try sessionFrom(data)
        made.signInMethod = method
        let new = made
        let failure = await exclusively { await self.start(new) }
        hub.emit(AuthStateChange(event: .signedIn, session: new))
        if let failure { throw GatehouseError.storage(failure) }
        return SignInResult(session: new, isNewUser: isNewUser)
    }

    private func start(_ new: Session) -> StorageFailure? {
        refreshing = nil  // a refresh of the previous session is not this session's
        return keep(new)
    }

    /// Runs a sign-in's or sign-out's store write inside the ``RefreshCoordinator``'s exclusive section, so a
    /// refresh by another client sharing the store (which re-reads the store before writing) cannot interleave.
    /// Without a coordinator, or when its lock cannot be taken (a coordinator that throws has not run `body`),
    /// it runs without it: the coordinator can delay a sign-in or sign-out (up to its timeout), never refuse one.
    @discardableResult
    func exclusively<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
        guard let refreshCoordinator else { return await body() }
        do {
            return try await refreshCoordinator.withExclusiveRefresh { await body() }
        } catch {
            log(.warning, "the refresh coordinator failed (\(error)); writing the store without it")
            return await body()
        }
    }

    /// Whether a response says the bearer token itself was refused, so a refresh and one retry can help:
    /// a 401 whose body is the contract's `unauthorized` (or has no contract code, as your own API may answer)
    /// and whose `WWW-Authenticate` names no error other than `invalid_token`. A 401 with any other code
    /// (`invalid_credentials` for a wrong current password) is the answer, not a token problem.
    static func isTokenRejection(_ data: Data, _ response: HTTPURLResponse) -> Bool {
        guard response.statusCode == 401 else { return false }
        if let challenge = response.value(forHTTPHeaderField: "WWW-Authenticate")?.lowercased(), challenge.contains("error="),
            !challenge.contains("invalid_token")
        {
            return false
        }
        let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any]
        guard let code = (object?["error"] as? [String: Any])?["code"] as? String else { return true }
        return code == "unauthorized"
    }

    /// After a 401: refresh unless another caller already replaced the rejected token.
    private func refreshAfterRejection(of token: String, _ kind: BearerToken) async throws -> String {
        guard let current = try loadedSession() else { throw GatehouseError.notSignedIn }
        let held = kind == .id ? current.idToken : current.accessToken
        if held != token { return held }
        let new = try await refreshed(from: current)
        return kind == .id ? new.idToken : new.accessToken
    }
}

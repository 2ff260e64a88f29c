import Crypto
import Foundation
import GatehouseInfrastructure
import Logging

/// Sign in with Apple for the web and Android (seed 000): the app opens our `/auth/apple/authorize`
/// with a PKCE challenge, Apple posts its answer (`form_post`) to our callback, and the browser is
/// sent back to the app's URL scheme with a single-use, one-minute hand-off code that only the holder
/// of the PKCE verifier can redeem.
///
/// The `state` is sealed (``AppleWebState``), so starting a flow stores nothing, and it is bound to
/// the browser that started the flow by a cookie holding a secret whose hash is sealed in the state:
/// a state sent to someone else's browser (with the sender's PKCE challenge in it) is refused there.
/// Each state is accepted once; its use is recorded (until it expires) only after Apple's identity
/// token verified for the Services ID, and under a per-client cap.
public struct AppleWebFlow: Sendable {
    /// How the callback hands the result to the app.
    public enum CallbackMode: String, Sendable {
        /// `<scheme>://apple-callback?code=<hand-off code>` (default).
        case handoff
        /// The seeds' weaker form: `<scheme>://apple-callback?id_token=…&code=…&email=…&name=…`.
        case forward
    }

    /// The web flow's configuration.
    public struct Settings: Sendable {
        /// The Services ID registered with Apple for the web flow.
        public var servicesID: String
        /// Base of Apple's endpoints (`https://appleid.apple.com`).
        public var appleAPIBase: String
        /// Our callback URL, registered as a Return URL of the Services ID.
        public var redirectURI: String
        /// The app's custom URL scheme; only ever from configuration.
        public var appURLScheme: String
        /// How the callback hands the result to the app.
        public var mode: CallbackMode
        /// Seconds a sealed `state` (and its browser-binding cookie) is accepted.
        var stateLifetime: TimeInterval = 600
        /// Seconds a hand-off code can be redeemed.
        var handoffLifetime: TimeInterval = 60

        /// Creates the settings (state: 10 minutes; hand-off code: 1 minute).
        /// - Parameters:
        ///   - servicesID: The Services ID registered with Apple.
        ///   - appleAPIBase: Base of Apple's endpoints.
        ///   - redirectURI: Our callback URL.
        ///   - appURLScheme: The app's URL scheme the browser is sent back to.
        ///   - mode: How the callback hands the result to the app.
        public init(servicesID: String, appleAPIBase: String, redirectURI: String, appURLScheme: String, mode: CallbackMode) {
            self.servicesID = servicesID
            self.appleAPIBase = appleAPIBase
            self.redirectURI = redirectURI
            self.appURLScheme = appURLScheme
            self.mode = mode
        }
    }

    /// Verifies Apple's identity token for the web flow (the Services ID the only audience, the state's
    /// nonce) and admits the client under its callback cap; ``SocialSignIn`` passes its own.
    typealias AppleVerify = @Sendable (_ identityToken: String, _ nonce: String, _ servicesID: String) async throws -> VerifiedIdentity

    /// Signs in with a verified Apple identity: ``SocialSignIn`` passes its own, so the web flow reaches
    /// the core the same way as the native exchange.
    typealias AppleSignIn =
        @Sendable (
            _ identity: VerifiedIdentity, _ authorizationCode: String?, _ nonce: String?, _ fullName: String?, _ redirectURI: String
        ) async throws -> AuthTokens

    let settings: Settings?
    let appleEnabled: Bool
    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource

    /// Creates the flow; `settings == nil` (no Services ID) disables it.
    /// - Parameters:
    ///   - settings: The web flow's settings, `nil` when it is off.
    ///   - appleEnabled: Whether Sign in with Apple is configured at all (its verifier is enabled).
    ///   - store: Where state uses and hand-off codes are recorded.
    ///   - box: Seals states and hand-off tokens.
    ///   - clock: The time source.
    ///   - random: Makes secrets and codes.
    public init(settings: Settings?, appleEnabled: Bool, store: any GatehouseStore, box: SecretBox, clock: any TimeSource, random: any RandomSource) {
        self.settings = settings
        self.appleEnabled = appleEnabled
        self.store = store
        self.box = box
        self.clock = clock
        self.random = random
    }

    func enabled() throws -> Settings {
        guard let settings, appleEnabled else {
            throw GatehouseError(
                .providerDisabled,
                "Sign in with Apple on the web is not enabled on this server.",
                cause: "GATEHOUSE_APPLE_SERVICES_ID is not set"
            )
        }
        return settings
    }

    // MARK: authorize

    /// What `/auth/apple/authorize` answers with: where to send the browser, and the browser-binding
    /// secret to set as a cookie for ``lifetime`` seconds.
    public struct Authorization: Sendable {
        /// Apple's authorize URL, carrying the sealed `state`.
        public var url: String
        /// The cookie value the callback must see again; the state holds only its SHA-256.
        public var browserBinding: String
        /// How long the state (and so the cookie) is good for, in whole seconds.
        public var lifetime: Int
    }

    /// Seals a single-use `state` bound to the PKCE challenge, the nonce and a fresh browser-binding
    /// secret, and returns Apple's authorize URL with it. Writes nothing: single use is recorded when
    /// the state comes back.
    func authorize(codeChallenge: String, nonce: String?, logger: Logger) async throws -> Authorization {
        let settings = try enabled()
        guard PKCE.isChallenge(codeChallenge) else {
            throw GatehouseError.invalidRequest("'code_challenge' must be the 43-character base64url SHA-256 of the code verifier (PKCE S256).")
        }
        if let nonce, !(1...256).contains(nonce.utf8.count) || !nonce.unicodeScalars.allSatisfy({ $0.isASCII && $0.value > 0x20 && $0.value < 0x7F })
        {
            throw GatehouseError.invalidRequest("'nonce' must be 1 to 256 printable ASCII characters.")
        }
        let rawNonce = nonce ?? random.token(bytes: 24)
        let binding = random.token(bytes: 32)
        let lifetime = Int(settings.stateLifetime)
        let sealed = AppleWebState(
            codeChallenge: codeChallenge,
            nonce: rawNonce,
            expiresAt: clock.now().addingTimeInterval(TimeInterval(lifetime)),
            bindingHash: AppleWebState.bindingHash(of: binding)
        )
        let state = try sealed.seal(with: box)
        var components = URLComponents(string: settings.appleAPIBase + "/auth/authorize")!
        components.queryItems = [
            URLQueryItem(name: "client_id", value: settings.servicesID),
            URLQueryItem(name: "redirect_uri", value: settings.redirectURI),
            URLQueryItem(name: "response_type", value: "code id_token"),
            URLQueryItem(name: "response_mode", value: "form_post"),
            URLQueryItem(name: "scope", value: "name email"),
            URLQueryItem(name: "state", value: state),
            URLQueryItem(name: "nonce", value: Digests.sha256Hex(rawNonce)),
        ]
        components.percentEncodedQuery = components.percentEncodedQuery?.replacingOccurrences(of: "+", with: "%2B")
        return Authorization(url: components.string!, browserBinding: binding, lifetime: lifetime)
    }

    // MARK: callback

    /// Handles Apple's form post and returns where to send the browser: always the configured app
    /// scheme, with a hand-off code or an error code. Never throws: every failure becomes `?error=`.
    ///
    /// `browserBinding` is the value of the cookie `/auth/apple/authorize` set in the browser that
    /// started the flow; a `state` is accepted only together with it, and only once. Its use is
    /// recorded only after Apple's identity token verified and the client was admitted under its cap,
    /// so a callback without a valid token writes nothing.
    /// - Parameters:
    ///   - form: Apple's form fields.
    ///   - browserBinding: The binding cookie's value, if sent.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    ///   - verify: Verifies the identity token and admits the client (``SocialSignIn`` passes its own).
    ///   - signIn: Signs in with the verified identity (``SocialSignIn`` passes its own).
    /// - Returns: The app-scheme URL to send the browser to.
    func callback(
        form: [String: String],
        browserBinding: String?,
        client: ClientInfo,
        logger: Logger,
        verify: AppleVerify,
        signIn: AppleSignIn
    ) async -> String {
        guard let settings = try? enabled() else { return target(["error": "provider_disabled"]) }
        let now = clock.now()
        var state: AppleWebState?
        if let raw = form["state"], !raw.isEmpty {
            switch check(state: raw, browserBinding: browserBinding, at: now) {
            case .success(let checked):
                state = checked
            case .failure(let reason):
                logger.info("Apple callback refused: invalid state", metadata: ["reason": .string(reason.description)])
                return target(["error": "invalid_state"])
            }
        }
        if let error = form["error"] {
            return target(["error": Self.appleErrorCode(error)])
        }
        if settings.mode == .forward, state == nil {
            // The seeds' clients build Apple's URL themselves and send no state; the app posts the
            // id_token to /auth/apple next, where it is verified. Nothing is recorded.
            return forward(form)
        }
        guard let state, let raw = form["state"] else { return target(["error": "invalid_state"]) }
        guard let idToken = form["id_token"], !idToken.isEmpty else { return target(["error": "invalid_request"]) }
        do {
            let identity = try await verify(idToken, state.nonce, settings.servicesID)
            switch await record(state: raw, state, at: now) {
            case .success: break
            case .failure(.storeFailed(let error)):
                logger.error("Apple callback could not record the state's use", metadata: ["error": .string("\(error)")])
                return target(["error": "internal_error"])
            case .failure(let reason):
                logger.info("Apple callback refused: invalid state", metadata: ["reason": .string(reason.description)])
                return target(["error": "invalid_state"])
            }
            if settings.mode == .forward { return forward(form) }
            let tokens = try await signIn(identity, form["code"], state.nonce, Self.parseUser(form["user"]).name, settings.redirectURI)
            let code = random.token(bytes: 32)
            let hash = Digests.sha256Base64URL(code)
            let sealed = try box.seal(Self.encode(tokens), context: "handoff:\(hash)")
            let record = HandoffRecord(
                codeHash: hash,
                codeChallenge: state.codeChallenge,
                sealedTokens: sealed,
                createdAt: now,
                expiresAt: now.addingTimeInterval(settings.handoffLifetime)
            )
            try await store.write { tx in try await tx.insertHandoff(record) }
            return target(["code": code])
        } catch let error as GatehouseError {
            logger.info(
                "Apple callback refused",
                metadata: ["error.code": .string(error.code.rawValue), "error.cause": .string(error.cause ?? "-")]
            )
            return target(["error": error.code.rawValue])
        } catch {
            logger.error("Apple callback failed", metadata: ["error": .string("\(error)")])
            return target(["error": "internal_error"])
        }
    }

    /// The seeds' form of the answer: Apple's fields forwarded to the app, which posts the
    /// `id_token` to `/auth/apple`.
    func forward(_ form: [String: String]) -> String {
        guard let idToken = form["id_token"], !idToken.isEmpty else { return target(["error": "invalid_request"]) }
        let user = Self.parseUser(form["user"])
        var items: [String: String] = ["id_token": idToken]
        if let code = form["code"] { items["code"] = code }
        if let email = user.email { items["email"] = email }
        if let name = user.name { items["name"] = name }
        return target(items)
    }

    /// Why a returned `state` was refused; logged, never shown (the browser only sees `invalid_state`).
    enum StateRefusal: Error, CustomStringConvertible {
        case unreadable, expired, noBrowserBinding, otherBrowser, alreadyUsed
        case storeFailed(any Error)

        var description: String {
            switch self {
            case .unreadable: "unreadable or tampered with"
            case .expired: "expired"
            case .noBrowserBinding: "no browser-binding cookie (the flow did not start in this browser)"
            case .otherBrowser: "the browser-binding cookie belongs to another flow or browser"
            case .alreadyUsed: "already used"
            case .storeFailed: "its use could not be recorded"
            }
        }
    }

    /// Opens the sealed state and checks its expiry and the browser binding (constant time). Writes
    /// nothing: ``record(state:_:at:)`` spends it once the identity token has verified.
    func check(state raw: String, browserBinding: String?, at now: Date) -> Result<AppleWebState, StateRefusal> {
        guard let state = AppleWebState.open(raw, with: box) else { return .failure(.unreadable) }
        guard state.expiresAt > now else { return .failure(.expired) }
        guard let browserBinding, !browserBinding.isEmpty, browserBinding.utf8.count <= 256 else { return .failure(.noBrowserBinding) }
        guard ConstantTime.equals(AppleWebState.bindingHash(of: browserBinding), state.bindingHash) else { return .failure(.otherBrowser) }
        return .success(state)
    }

    /// Records a checked state's use; only the first use of a state succeeds.
    func record(state raw: String, _ state: AppleWebState, at now: Date) async -> Result<Void, StateRefusal> {
        let hash = Digests.sha256Base64URL(raw)
        do {
            let first = try await store.write { tx in
                try await tx.recordAuthorizationStateUse(hash: hash, codeChallenge: state.codeChallenge, expiresAt: state.expiresAt, at: now)
            }
            return first ? .success(()) : .failure(.alreadyUsed)
        } catch {
            return .failure(.storeFailed(error))
        }
    }

    /// `<scheme>://apple-callback?…`, every value percent-encoded.
    func target(_ items: [String: String]) -> String {
        let scheme = settings?.appURLScheme ?? "awscognito"
        var components = URLComponents()
        components.queryItems = items.keys.sorted().map { URLQueryItem(name: $0, value: items[$0]) }
        let query = (components.percentEncodedQuery ?? "")
            .replacingOccurrences(of: "+", with: "%2B").replacingOccurrences(of: "'", with: "%27")
        return "\(scheme)://apple-callback?\(query)"
    }

    // MARK: hand-off

    /// Redeems a hand-off code with the PKCE verifier. Single use: a wrong verifier burns the code.
    func redeem(code: String, verifier: String, logger: Logger) async throws -> AuthTokens {
        let refused = GatehouseError(.invalidGrant, "The hand-off code is invalid, expired or already used. Sign in again.")
        guard code.utf8.count <= 128, !code.isEmpty else { throw refused }
        let now = clock.now()
        let hash = Digests.sha256Base64URL(code)
        guard let record = try await store.write({ tx in try await tx.consumeHandoff(hash: hash, at: now) }) else { throw refused }
        guard record.expiresAt > now else { throw refused }
        guard PKCE.verifies(verifier, challenge: record.codeChallenge) else {
            logger.warning("hand-off code presented with the wrong PKCE verifier; the code is spent")
            throw refused
        }
        return try Self.decode(try box.open(record.sealedTokens, context: "handoff:\(hash)"))
    }

    // MARK: helpers

    /// Apple's own error codes (`user_cancelled_authorize`, …) pass through; anything else is generic.
    static func appleErrorCode(_ value: String) -> String {
        let ok = (1...64).contains(value.utf8.count) && value.unicodeScalars.allSatisfy { ("a"..."z").contains($0) || $0 == "_" }
        return ok ? value : "apple_error"
    }

    /// Apple's `user` field: `{"name":{"firstName","lastName"},"email"}`, unsigned — a display name hint at most.
    static func parseUser(_ json: String?) -> (name: String?, email: String?) {
        guard let json, json.utf8.count <= 4096, case .object(let user)? = try? StrictJSONParser(maxDepth: 4).parse(Array(json.utf8)) else {
            return (nil, nil)
        }
        var name: String?
        if case .object(let parts)? = user["name"] {
            let joined = [parts["firstName"]?.stringValue, parts["lastName"]?.stringValue].compactMap { $0 }.filter { !$0.isEmpty }.joined(
                separator: " "
            )
            name = joined.isEmpty ? nil : String(joined.prefix(256))
        }
        let email = user["email"]?.stringValue.flatMap { try? EmailAddress($0) }?.value
        return (name, email)
    }

    static func encode(_ tokens: AuthTokens) -> [UInt8] {
        JSONValue.object([
            "id_token": .string(tokens.idToken), "access_token": .string(tokens.accessToken), "refresh_token": .string(tokens.refreshToken),
            "expires_in": .number(Double(tokens.expiresIn)), "is_new_user": .bool(tokens.isNewUser ?? false),
        ]).serialized()
    }

    static func decode(_ bytes: [UInt8]) throws -> AuthTokens {
        guard case .object(let o) = try StrictJSONParser().parse(bytes), let id = o["id_token"]?.stringValue,
            let access = o["access_token"]?.stringValue,
            let refresh = o["refresh_token"]?.stringValue, let expires = o["expires_in"]?.int64Value
        else { throw GatehouseError.internalError(cause: "hand-off tokens unreadable") }
        var isNew = false
        if case .bool(let flag)? = o["is_new_user"] { isNew = flag }
        return AuthTokens(idToken: id, accessToken: access, refreshToken: refresh, expiresIn: Int(expires), isNewUser: isNew)
    }
}

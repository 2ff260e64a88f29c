import Crypto
import Foundation
import GatehouseInfrastructure
import Logging

/// Passkeys (WebAuthn Level 3) on the embedded pool: registration by a signed-in user, sign-in with
/// a discoverable or a named account's credential, listing and removal. Every check of the spec's
/// ceremonies is made here (``register(for:response:name:client:logger:)``,
/// ``signIn(response:client:logger:)``); attestation statements are not verified (`attestation: none`
/// is asked for, so the authenticator's make is neither known nor trusted).
public struct Passkeys: Sendable {
    /// The relying party and origins; `nil` when passkeys are off (no RP id, or a provider without passkeys).
    public let settings: PasskeySettings?
    let strategy: (any PasskeyStrategy)?
    /// Starts the session a verified passkey proves.
    let issuer: SessionIssuer?
    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource
    let limiter: RateLimiter
    let events: any AuthEventObserver

    /// Creates the use case.
    /// - Parameters:
    ///   - settings: The relying party and origins; `nil` turns passkeys off.
    ///   - strategy: The embedded pool; `nil` (Cognito) turns passkeys off.
    ///   - issuer: The embedded pool's session issuer (`nil` with Cognito).
    ///   - store: Where passkeys and single uses are kept.
    ///   - box: Seals challenges.
    ///   - clock: The time source.
    ///   - random: Makes challenges.
    ///   - limiter: Counts failed sign-ins per client.
    ///   - events: Where sign-in outcomes are counted (`passkey`).
    public init(
        settings: PasskeySettings?,
        strategy: (any PasskeyStrategy)?,
        issuer: SessionIssuer?,
        store: any GatehouseStore,
        box: SecretBox,
        clock: any TimeSource,
        random: any RandomSource,
        limiter: RateLimiter,
        events: any AuthEventObserver
    ) {
        self.settings = strategy == nil ? nil : settings
        self.strategy = strategy
        self.issuer = issuer
        self.store = store
        self.box = box
        self.clock = clock
        self.random = random
        self.limiter = limiter
        self.events = events
    }

    func enabled() throws -> (PasskeySettings, any PasskeyStrategy) {
        guard let settings, let strategy else {
            throw GatehouseError(.providerDisabled, "Passkeys are not enabled on this server.", cause: "GATEHOUSE_PASSKEY_RP_ID is not set")
        }
        return (settings, strategy)
    }

    static let refused = GatehouseError(.invalidCredentials, "The passkey could not be verified.")

    /// WebAuthn's user handle for a user: the bytes of its `sub`.
    static func userHandle(_ userID: String) -> String { Base64URL.encode(Array(userID.utf8)) }

    func newChallenge(_ purpose: PasskeyChallenge.Purpose, userID: String, settings: PasskeySettings) throws -> String {
        try PasskeyChallenge(
            purpose: purpose,
            userID: userID,
            expiresAt: clock.now().addingTimeInterval(settings.challengeLifetime),
            nonce: random.token(bytes: 16)
        ).seal(with: box)
    }

    static func descriptor(_ passkey: PasskeyRecord) -> JSONValue {
        var fields: [String: JSONValue] = ["type": "public-key", "id": .string(passkey.id)]
        if !passkey.transports.isEmpty { fields["transports"] = .array(passkey.transports.map(JSONValue.string)) }
        return .object(fields)
    }

    // MARK: registration options, list, delete

    /// `PublicKeyCredentialCreationOptions` for the caller, in WebAuthn's JSON form: resident key and
    /// user verification required, ES256, EdDSA and RS256, the caller's passkeys excluded.
    /// - Parameter principal: The signed-in caller.
    /// - Returns: The options.
    /// - Throws: `provider_disabled`, `unauthorized` when the user is gone.
    package func registrationOptions(for principal: Principal) async throws -> JSONValue {
        let (settings, strategy) = try enabled()
        guard let user = try await strategy.passkeyUser(id: principal.sub) else { throw GatehouseError.unauthorized(cause: "user gone") }
        let existing = try await store.read { try await $0.passkeys(userID: user.id) }
        let label = user.email ?? user.phone ?? user.id
        return .object([
            "rp": ["id": .string(settings.rpID), "name": .string(settings.rpName)],
            "user": ["id": .string(Self.userHandle(user.id)), "name": .string(label), "displayName": .string(user.name ?? label)],
            "challenge": .string(try newChallenge(.registration, userID: user.id, settings: settings)),
            "pubKeyCredParams": .array(COSEPublicKey.offeredAlgorithms.map { ["type": "public-key", "alg": .number(Double($0))] }),
            "timeout": .number(settings.challengeLifetime * 1000),
            "excludeCredentials": .array(existing.map(Self.descriptor)),
            "authenticatorSelection": ["residentKey": "required", "requireResidentKey": true, "userVerification": "required"],
            "attestation": "none",
        ])
    }

    /// The caller's passkeys.
    /// - Parameter principal: The signed-in caller.
    /// - Returns: Oldest first.
    /// - Throws: A store error.
    public func list(for principal: Principal) async throws -> [PasskeyRecord] {
        try await store.read { try await $0.passkeys(userID: principal.sub) }
    }

    /// Removes one of the caller's passkeys.
    /// - Parameters:
    ///   - principal: The signed-in caller.
    ///   - id: The credential id.
    ///   - logger: The request's logger.
    /// - Throws: `not_found` when the caller has no passkey with that id.
    public func delete(for principal: Principal, id: String, logger: Logger) async throws {
        let (now, origin) = (clock.now(), AuditOrigin.current)
        let removed = try await store.write { tx in
            guard try await tx.deletePasskey(id: id, userID: principal.sub) else { return false }
            try await tx.appendAudit(.make(.passkeyRemoved, userID: principal.sub, origin: origin, at: now, random: random))
            return true
        }
        guard removed else {
            throw GatehouseError(.notFound, "No such passkey.")
        }
        logger.info("passkey removed", metadata: ["user.sub": .string(principal.sub)])
    }

    // MARK: sign-in options

    /// `PublicKeyCredentialRequestOptions`: with `email`, that account's passkeys as `allowCredentials`
    /// (an address without any gets a decoy derived from it, so the answer does not say whether it has
    /// an account); without, none (the authenticator offers its discoverable credentials).
    /// - Parameter email: The address the user typed, if any.
    /// - Returns: The options.
    /// - Throws: `provider_disabled`, `invalid_request` for a malformed address.
    package func authenticationOptions(email: String?) async throws -> JSONValue {
        let (settings, strategy) = try enabled()
        var bound = ""
        var allow: [JSONValue] = []
        if let email {
            let address = try EmailAddress(email)
            if let user = try await strategy.passkeyUser(email: address) {
                let passkeys = try await store.read { try await $0.passkeys(userID: user.id) }.filter { $0.flaggedAt == nil }
                if !passkeys.isEmpty {
                    bound = user.id
                    allow = passkeys.map(Self.descriptor)
                }
            }
            if allow.isEmpty {
                let decoy = box.keyedHash("passkey-decoy", address.key)
                allow = [["type": "public-key", "id": .string(decoy), "transports": ["internal", "hybrid"]]]
            }
        }
        var options: [String: JSONValue] = [
            "challenge": .string(try newChallenge(.authentication, userID: bound, settings: settings)),
            "timeout": .number(settings.challengeLifetime * 1000), "rpId": .string(settings.rpID), "userVerification": "required",
        ]
        if !allow.isEmpty { options["allowCredentials"] = .array(allow) }
        return .object(options)
    }
}

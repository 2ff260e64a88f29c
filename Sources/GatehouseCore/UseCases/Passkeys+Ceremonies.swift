import Crypto
import Foundation
import GatehouseInfrastructure
import Logging

/// The two WebAuthn ceremonies, every check of §7.1 and §7.2 (attestation statements aside).
extension Passkeys {
    /// A `RegistrationResponseJSON` or `AuthenticationResponseJSON`, its base64url fields decoded.
    struct Response {
        let credentialID: String
        let fields: [String: JSONValue]

        init(_ json: JSONValue) throws(GatehouseError) {
            guard case .object(let top) = json, top["type"]?.stringValue == "public-key", let id = top["id"]?.stringValue,
                let raw = top["rawId"]?.stringValue, id == raw, let decoded = Base64URL.decode(id), (16...1023).contains(decoded.count),
                case .object(let fields)? = top["response"]
            else { throw GatehouseError.invalidRequest("Send the credential as WebAuthn's JSON form (id, rawId, type, response).") }
            credentialID = id
            self.fields = fields
        }

        func bytes(_ name: String) throws(GatehouseError) -> [UInt8] {
            guard let text = fields[name]?.stringValue, let bytes = Base64URL.decode(text) else {
                throw GatehouseError.invalidRequest("'response.\(name)' must be base64url.")
            }
            return bytes
        }
    }

    /// Checks client data for a ceremony and opens its challenge; writes nothing.
    func check(_ raw: [UInt8], type: String, purpose: PasskeyChallenge.Purpose, settings: PasskeySettings) throws -> PasskeyChallenge {
        let client = try PasskeyClientData(raw)
        guard client.type == type else { throw cause("client data type \(client.type)") }
        guard settings.origins.contains(client.origin) else { throw cause("origin not accepted") }
        guard !client.crossOrigin else { throw cause("cross-origin ceremony") }
        guard let challenge = PasskeyChallenge.open(client.challenge, with: box), challenge.purpose == purpose else {
            throw cause("challenge not ours or for another ceremony")
        }
        guard challenge.expiresAt > clock.now() else { throw cause("challenge expired") }
        return challenge
    }

    /// Checks the RP id hash and the user-present and user-verified flags.
    func check(_ data: AuthenticatorData, settings: PasskeySettings) throws {
        guard ConstantTime.equals(data.rpIDHash, Array(SHA256.hash(data: Data(settings.rpID.utf8)))) else { throw cause("rpIdHash") }
        guard data.userPresent else { throw cause("user not present") }
        guard data.userVerified else { throw cause("user not verified") }
    }

    /// Records the challenge's single use (hash of the challenge), on any instance.
    func spend(_ rawClientData: [UInt8], _ challenge: PasskeyChallenge) async throws {
        let key = Digests.sha256Base64URL(Base64URL.encode(try PasskeyClientData(rawClientData).challenge))
        let first = try await store.write { tx in
            try await tx.recordAuthorizationStateUse(hash: key, codeChallenge: "passkey", expiresAt: challenge.expiresAt, at: clock.now())
        }
        guard first else { throw cause("challenge used before") }
    }

    func cause(_ text: String) -> GatehouseError {
        GatehouseError(.invalidCredentials, Self.refused.message, cause: "passkey: " + text)
    }

    // MARK: registration

    /// Registers a passkey for the caller from a `RegistrationResponseJSON`.
    /// - Parameters:
    ///   - principal: The signed-in caller (the challenge must be one issued to them).
    ///   - response: The credential in WebAuthn's JSON form.
    ///   - name: A name for it (default: "Passkey").
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The stored passkey.
    /// - Throws: `invalid_request` (malformed), `invalid_credentials` (a check failed), `conflict` (registered before).
    package func register(
        for principal: Principal,
        response json: JSONValue,
        name: String?,
        client: ClientInfo,
        logger: Logger
    ) async throws
        -> PasskeyRecord
    {
        let (settings, _) = try enabled()
        let label = try InputRules.displayName(name, member: "name") ?? "Passkey"
        let response = try Response(json)
        let clientData = try response.bytes("clientDataJSON")
        let attestation: CBORValue
        do { attestation = try CBORDecoder.decodeOne(try response.bytes("attestationObject")) } catch let error as GatehouseError {
            throw error
        } catch { throw GatehouseError.invalidRequest("'response.attestationObject' is not CBOR.") }
        do {
            let challenge = try check(clientData, type: "webauthn.create", purpose: .registration, settings: settings)
            guard challenge.userID == principal.sub else { throw cause("registration challenge of another user") }
            guard attestation[text: "fmt"]?.textString != nil, let rawData = attestation[text: "authData"]?.byteString else {
                throw cause("attestation object without fmt or authData")
            }
            let data = try AuthenticatorData(rawData)
            try check(data, settings: settings)
            guard let credential = data.attestedCredential, Base64URL.encode(credential.credentialID) == response.credentialID else {
                throw cause("no attested credential, or another credential id")
            }
            let key = try COSEPublicKey(cose: credential.publicKey)
            let transports = (response.fields["transports"]?.arrayValue ?? []).compactMap(\.stringValue).filter {
                $0.count <= 32 && $0.allSatisfy { $0.isLetter || $0 == "-" }
            }
            let now = clock.now()
            let record = PasskeyRecord(
                id: response.credentialID,
                userID: principal.sub,
                publicKey: Base64URL.encode(CBOREncoder.encode(credential.publicKey)),
                signCount: Int64(data.signCount),
                transports: Array(transports.prefix(8)),
                backupEligible: data.backupEligible,
                backedUp: data.backedUp,
                name: label,
                createdAt: now
            )
            try await spend(clientData, challenge)
            let origin = AuditOrigin.current
            do {
                try await store.write { tx in
                    try await tx.insertPasskey(record)
                    try await tx.appendAudit(.make(.passkeyAdded, userID: principal.sub, origin: origin, at: now, random: random))
                }
            } catch is StoreConflict {
                throw GatehouseError(.conflict, "This passkey is registered already.")
            }
            logger.info("passkey registered", metadata: ["user.sub": .string(principal.sub), "passkey.alg": .stringConvertible(key.algorithm)])
            return record
        } catch let error as COSEPublicKey.Unsupported {
            throw cause(error.description)
        } catch let error as AuthenticatorData.Malformed {
            throw cause(error.description)
        }
    }

    // MARK: sign-in

    /// Signs in with an `AuthenticationResponseJSON`. A credential whose counter went backwards is
    /// flagged and refused from then on; failures count against the client's address.
    /// - Parameters:
    ///   - response: The assertion in WebAuthn's JSON form.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The session's tokens.
    /// - Throws: `invalid_request`, `invalid_credentials`, `too_many_requests`.
    package func signIn(response json: JSONValue, client: ClientInfo, logger: Logger) async throws -> AuthTokens {
        let (settings, strategy) = try enabled()
        let bucket = limiter.bucket(limiter.settings.exchangePerClient, client: client)
        try await limiter.ensureAllowed([bucket])
        return try await events.observing("passkey") {
            do {
                return try await verifyAndSignIn(json, settings: settings, strategy: strategy, client: client, logger: logger)
            } catch let error as GatehouseError where error.code == .invalidCredentials {
                logger.info("passkey sign-in refused", metadata: ["error.cause": .string(error.cause ?? "-")])
                try await limiter.consume([bucket])
                throw error
            }
        }
    }

    private func verifyAndSignIn(
        _ json: JSONValue,
        settings: PasskeySettings,
        strategy: any PasskeyStrategy,
        client: ClientInfo,
        logger: Logger
    ) async throws
        -> AuthTokens
    {
        let response = try Response(json)
        let clientData = try response.bytes("clientDataJSON")
        let rawData = try response.bytes("authenticatorData")
        let signature = try response.bytes("signature")
        let challenge = try check(clientData, type: "webauthn.get", purpose: .authentication, settings: settings)
        guard let passkey = try await store.read({ try await $0.passkey(id: response.credentialID) }) else { throw cause("unknown credential") }
        guard passkey.flaggedAt == nil else { throw cause("flagged credential (its counter went backwards)") }
        if !challenge.userID.isEmpty, challenge.userID != passkey.userID { throw cause("credential of another user than the one named") }
        if let handle = response.fields["userHandle"]?.stringValue, !handle.isEmpty, handle != Self.userHandle(passkey.userID) {
            throw cause("user handle of another user")
        }
        let data: AuthenticatorData
        do { data = try AuthenticatorData(rawData) } catch { throw cause(error.description) }
        try check(data, settings: settings)
        guard let cose = Base64URL.decode(passkey.publicKey), let key = try? COSEPublicKey(cose: try CBORDecoder.decodeOne(cose)) else {
            throw GatehouseError.internalError(cause: "a stored passkey's public key does not read")
        }
        guard key.verifies(signature, over: rawData + Array(SHA256.hash(data: clientData))) else { throw cause("signature") }
        // Spent before the counter is compared: a replayed assertion fails here, and cannot get the
        // owner's passkey flagged.
        try await spend(clientData, challenge)
        let now = clock.now()
        let counter = Int64(data.signCount)
        if counter != 0 || passkey.signCount != 0, counter <= passkey.signCount {
            try await store.write { tx in try await tx.flagPasskey(id: passkey.id, at: now) }
            logger.warning("passkey counter went backwards: flagged", metadata: ["user.sub": .string(passkey.userID)])
            throw cause("sign counter went backwards")
        }
        let recorded = try await store.write { tx in
            try await tx.recordPasskeyUse(id: passkey.id, previousCount: passkey.signCount, signCount: counter, backedUp: data.backedUp, at: now)
        }
        guard recorded else { throw cause("the credential was used concurrently") }
        let subject = try await strategy.passkeySubject(userID: passkey.userID)
        return try await SessionIssuer.required(issuer).start(subject, client: client, logger: logger)
    }
}

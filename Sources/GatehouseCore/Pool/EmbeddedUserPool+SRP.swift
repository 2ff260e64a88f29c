import Crypto
import Foundation
import GatehouseInfrastructure
import Logging

extension EmbeddedUserPool: SRPStrategy {
    /// How long a challenge may be answered (Cognito's own session lasts three minutes).
    static let srpChallengeLifetime: TimeInterval = 300
    static let secretBlockContext = "srp-secret-block/v1"

    public var srpAvailable: Bool { srpVerifiers?.isAvailable == true }

    public func srpChallenge(email: EmailAddress, publicA: String, clientID: String) async throws -> SRPChallenge {
        guard let srpVerifiers, let srp = srpVerifiers.srp else { throw GatehouseError.invalidCredentials }
        guard let a = CognitoSRPHex.magnitude(fromHex: publicA, maxDigits: 768), !a.allSatisfy({ $0 == 0 }) else {
            throw GatehouseError.invalidRequest("SRP_A is not a valid public value.")
        }
        let user = try await store.read { try await $0.user(emailKey: email.key) }
        let poolName = srpVerifiers.pool.name
        // An unknown address, or an account without a verifier, gets a decoy made from the address (the
        // same salt and user id on every try), so the answer does not tell whether the account exists.
        let known = user.flatMap { user in srpVerifiers.open(user).map { (user, $0) } }
        let userID: String
        let verifier: [UInt8]
        let salt: String
        if let (user, opened) = known {
            userID = user.id
            verifier = opened.verifier
            salt = opened.salt
        } else {
            let decoy = decoySRP(email: email, srp: srp, poolName: poolName)
            userID = ""
            verifier = decoy.verifier
            salt = decoy.salt
        }
        let userIDForSRP = known?.0.id ?? decoyUserID(email)
        let privateB = CognitoSRP.makePrivateB(randomBytes: random.bytes)
        let publicB = try srp.publicB(verifier: verifier, privateB: privateB)
        let now = clock.now()
        let state: JSONValue = .object([
            "id": .string(random.token(bytes: 16)),
            "u": .string(userID),
            "e": .string(email.key),
            "p": .string(poolName),
            "c": .string(clientID),
            "x": .number(Double(Int64((now.timeIntervalSince1970 + Self.srpChallengeLifetime) * 1000))),
            "a": .string(publicA),
            "B": .string(CognitoSRPHex.hex(publicB)),
            "b": .string(CognitoSRPHex.hex(privateB)),
            "s": .string(salt),
            "i": .string(userIDForSRP),
        ])
        let sealed = try box.sealBytes(state.serialized(), context: Self.secretBlockContext)
        return SRPChallenge(
            salt: salt,
            srpB: CognitoSRPHex.minimalHex(publicB),
            secretBlock: Data(sealed).base64EncodedString(),
            userIDForSRP: userIDForSRP,
            username: email.value
        )
    }

    public func openSRPClaim(_ claim: SRPClaim, clientID: String) throws -> OpenedSRPClaim {
        guard let srpVerifiers, claim.secretBlock.utf8.count <= 4096, let block = Data(base64Encoded: claim.secretBlock),
            let plain = try? box.openBytes(Array(block), context: Self.secretBlockContext),
            let state = try? StrictJSONParser().parse(plain).objectValue,
            let id = state["id"]?.stringValue, let userID = state["u"]?.stringValue, let emailKey = state["e"]?.stringValue,
            let poolName = state["p"]?.stringValue, let blockClient = state["c"]?.stringValue, let expiresMs = state["x"]?.int64Value,
            let publicA = state["a"]?.stringValue, let publicB = state["B"]?.stringValue.flatMap({ CognitoSRPHex.magnitude(fromHex: $0) }),
            let privateB = state["b"]?.stringValue.flatMap({ CognitoSRPHex.magnitude(fromHex: $0) }),
            let salt = state["s"]?.stringValue, let userIDForSRP = state["i"]?.stringValue
        else { throw GatehouseError.invalidCredentials }
        let expiresAt = Date(timeIntervalSince1970: Double(expiresMs) / 1000)
        guard poolName == srpVerifiers.pool.name, blockClient == clientID, expiresAt > clock.now() else {
            throw GatehouseError.invalidCredentials
        }
        return OpenedSRPClaim(
            id: id,
            userID: userID,
            emailKey: emailKey,
            publicA: publicA,
            publicB: publicB,
            privateB: privateB,
            salt: salt,
            userIDForSRP: userIDForSRP,
            expiresAt: expiresAt,
            secretBlock: Array(block),
            claim: claim
        )
    }

    public func verifySRP(_ claim: OpenedSRPClaim, client: ClientInfo, logger: Logger) async throws -> SignInProof {
        guard let srpVerifiers, let srp = srpVerifiers.srp else { throw GatehouseError.invalidCredentials }
        let now = clock.now()
        guard CognitoSRPTimestamp.isFresh(claim.claim.timestamp, now: now) else {
            logger.info("SRP sign-in refused: stale or malformed timestamp")
            throw GatehouseError.invalidCredentials
        }
        let first = try await store.write { tx in try await tx.claimSRPChallenge(id: claim.id, expiresAt: claim.expiresAt) }
        guard first else {
            logger.info("SRP sign-in refused: secret block already answered")
            throw GatehouseError.invalidCredentials
        }
        let user = claim.userID.isEmpty ? nil : try await store.read { try await $0.user(id: claim.userID) }
        // The decoy's proof is checked too, so a decoy costs what a real account does.
        let verifier: [UInt8]
        if let user, let opened = srpVerifiers.open(user), opened.salt == claim.salt {
            verifier = opened.verifier
        } else {
            guard let email = try? EmailAddress(claim.emailKey) else { throw GatehouseError.invalidCredentials }
            verifier = decoySRP(email: email, srp: srp, poolName: srpVerifiers.pool.name).verifier
        }
        let verified = srp.verifyPasswordClaim(
            publicAHex: claim.publicA,
            publicB: claim.publicB,
            verifier: verifier,
            privateB: claim.privateB,
            poolName: srpVerifiers.pool.name,
            userIDForSRP: claim.userIDForSRP,
            secretBlock: claim.secretBlock,
            timestamp: claim.claim.timestamp,
            signatureBase64: claim.claim.signature
        )
        guard verified, let user, user.id == claim.userID else {
            logger.info("sign-in failed")
            throw GatehouseError.invalidCredentials
        }
        guard user.confirmed else { throw GatehouseError.userNotConfirmed }
        logger.info("SRP proof verified", metadata: ["user.sub": .string(user.id)])
        return .subject(VerifiedSubject(user: user, method: "password"))
    }

    /// The decoy for an address without a usable verifier: a salt and a verifier derived from the
    /// address under the master key, the same on every try and on every instance.
    private func decoySRP(email: EmailAddress, srp: CognitoSRP, poolName: String) -> (verifier: [UInt8], salt: String) {
        let saltBytes = Array(SHA256.hash(data: Data(box.keyedHash("srp-decoy-salt", email.key).utf8)).prefix(16))
        let password = box.keyedHash("srp-decoy-password", email.key)
        let verifier = (try? srp.verifier(poolName: poolName, userIDForSRP: decoyUserID(email), password: password, salt: saltBytes)) ?? [2]
        return (verifier, CognitoSRPHex.paddedHex(saltBytes))
    }

    /// A user id for the decoy, shaped like a `sub`.
    private func decoyUserID(_ email: EmailAddress) -> String {
        let bytes = Array(SHA256.hash(data: Data(box.keyedHash("srp-decoy-sub", email.key).utf8)).prefix(16))
        let hex = bytes.map { String(format: "%02x", $0) }.joined()
        let characters = Array(hex)
        return [0..<8, 8..<12, 12..<16, 16..<20, 20..<32].map { String(characters[$0]) }.joined(separator: "-")
    }
}

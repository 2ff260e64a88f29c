import Crypto
import Foundation
import GatehouseInfrastructure

/// The server side of Cognito's SRP-6a variant (`USER_SRP_AUTH`, then the `PASSWORD_VERIFIER`
/// challenge), as Amplify, amazon-cognito-identity-js and pycognito compute it.
///
/// Group: RFC 5054's 3072-bit prime, g = 2, k = H(PAD(N) ‖ PAD(g)), H = SHA-256, PAD as in
/// `CognitoSRPHex.padded`. Unlike RFC 5054, the client proves the password with an HMAC over
/// `poolName ‖ USER_ID_FOR_SRP ‖ SECRET_BLOCK ‖ TIMESTAMP`, keyed by 16 bytes of
/// HKDF-SHA256(PAD(S), salt: PAD(u), info: "Caldera Derived Key"); there is no M1/M2 exchange, so
/// the server proves nothing back.
///
/// All numbers are big-endian bytes. `verifier` and `privateB` are secrets (the verifier is a
/// password equivalent for an offline guess costing two SHA-256 and one modexp): the exponents that
/// depend on them run in constant time, and keys and shared secrets computed here are wiped before
/// returning. What the caller stores or seals (verifier, b in SECRET_BLOCK) is the caller's to protect.
package struct CognitoSRP: Sendable {
    /// Why an SRP computation did not produce a value.
    package enum Failure: Error, Equatable {
        /// No big-number backend (libcrypto missing): answer SRP sign-ins as not available.
        case unavailable
        /// SRP_A is not hex, is longer than N, or is 0 mod N. Cognito answers this as a bad request.
        case invalidPublicA
        /// u = H(PAD(A) ‖ PAD(B)) is zero (the client must start again).
        case zeroScrambler
        /// A salt, verifier or private value is empty or out of range, or the backend failed.
        case invalidInput
    }

    /// RFC 5054's 3072-bit prime, as amazon-cognito-identity-js and pycognito spell it.
    package static let primeHex =
        "FFFFFFFFFFFFFFFFC90FDAA22168C234C4C6628B80DC1CD129024E088A67CC74020BBEA63B139B22514A08798E3404DD"
        + "EF9519B3CD3A431B302B0A6DF25F14374FE1356D6D51C245E485B576625E7EC6F44C42E9A637ED6B0BFF5CB6F406B7ED"
        + "EE386BFB5A899FA5AE9F24117C4B1FE649286651ECE45B3DC2007CB8A163BF0598DA48361C55D39A69163FA8FD24CF5F"
        + "83655D23DCA3AD961C62F356208552BB9ED529077096966D670C354E4ABC9804F1746C08CA18217C32905E462E36CE3B"
        + "E39E772C180E86039B2783A2EC07A28FB5C55DF06F4C52C9DE2BCBF6955817183995497CEA956AE515D2261898FA0510"
        + "15728E5A8AAAC42DAD33170D04507A33A85521ABDF1CBA64ECFB850458DBEF0A8AEA71575D060C7DB3970F85A6E1E4C7"
        + "ABF5AE8CDB0933D71E8C94E04A25619DCEE3D2261AD2EE6BF12FFA06D98A0864D87602733EC86A64521F2B18177B200C"
        + "BBE117577A615D6C770988C0BAD946E208E24FA074E5AB3143DB5BFCE0FD108E4B82D120A93AD2CAFFFFFFFFFFFFFFFF"
    /// N, 384 bytes.
    package static let prime: [UInt8] = CognitoSRPHex.magnitude(fromHex: primeHex) ?? []
    /// g = 2.
    package static let generator: [UInt8] = [2]
    /// k = SHA256(0x00 ‖ N ‖ 0x02): pycognito's `hex_hash("00" + N_HEX + "0" + G_HEX)`.
    package static let multiplier: [UInt8] = Array(SHA256.hash(data: CognitoSRPHex.padded(prime) + CognitoSRPHex.padded(generator)))
    /// "Caldera Derived Key" ‖ 0x01 is HKDF's first expand block; `deriveKey` appends the 0x01.
    static let keyInfo = Array("Caldera Derived Key".utf8)
    /// Bytes of a new user's salt.
    package static let saltByteCount = 16
    /// 256 bits, RFC 5054's minimum for b; Amplify Swift's client uses 256-bit a too.
    package static let privateBByteCount = 32

    let arithmetic: any ModularArithmetic

    /// - Parameter arithmetic: The big-number backend the modular exponentiations run on.
    package init(arithmetic: any ModularArithmetic) {
        self.arithmetic = arithmetic
    }

    /// SRP on the system's libcrypto, or `nil` when it is not there (SRP unavailable).
    package static let system: CognitoSRP? = SystemBigNum.shared.map { CognitoSRP(arithmetic: $0) }

    /// The pool name inside every hash: the part of a pool id (`us-east-1_AbC123`) after its `_`.
    package static func poolName(poolID: String) -> String? {
        guard let underscore = poolID.firstIndex(of: "_") else { return nil }
        let name = poolID[poolID.index(after: underscore)...]
        return name.isEmpty ? nil : String(name)
    }

    /// A new salt, already in padded form: send it as `CognitoSRPHex.paddedHex(salt)` (`SALT`).
    /// - Parameter randomBytes: A CSPRNG (`EntropyPool.shared.bytes`).
    package static func makeSalt(randomBytes: (Int) -> [UInt8]) -> [UInt8] {
        CognitoSRPHex.padded(randomBytes(saltByteCount))
    }

    /// A new private value b, 1 ≤ b < 2^256 (so b < N).
    package static func makePrivateB(randomBytes: (Int) -> [UInt8]) -> [UInt8] {
        while true {
            let candidate = randomBytes(privateBByteCount)
            if candidate.contains(where: { $0 != 0 }) { return candidate }
        }
    }

    /// x = H(PAD(salt) ‖ H(poolName ‖ userIDForSRP ‖ ":" ‖ password)).
    static func passwordExponent(poolName: String, userIDForSRP: String, password: String, salt: [UInt8]) -> [UInt8] {
        let inner = SHA256.hash(data: Array("\(poolName)\(userIDForSRP):\(password)".utf8))
        return Array(SHA256.hash(data: CognitoSRPHex.padded(salt) + Array(inner)))
    }

    /// The verifier v = g^x mod N to store for a user (compute it whenever a password is set).
    /// - Parameters:
    ///   - userIDForSRP: What the challenge will send as `USER_ID_FOR_SRP` (Cognito sends the
    ///     internal user name, the `sub` in username-attribute pools): it is hashed into x, so it
    ///     can never change for this verifier.
    ///   - salt: Any representation of the salt's number; `SALT` must be its padded hex.
    package func verifier(poolName: String, userIDForSRP: String, password: String, salt: [UInt8]) throws(Failure) -> [UInt8] {
        guard !CognitoSRPHex.stripped(salt).isEmpty else { throw .invalidInput }
        var x = Self.passwordExponent(poolName: poolName, userIDForSRP: userIDForSRP, password: password, salt: salt)
        defer { Self.wipe(&x) }
        guard let v = arithmetic.modExp(Self.generator, x, modulus: Self.prime, secretExponent: true), !v.isEmpty else {
            throw .invalidInput
        }
        return v
    }

    /// B = (k·v + g^b) mod N, sent as `CognitoSRPHex.minimalHex(B)` (`SRP_B`).
    package func publicB(verifier: [UInt8], privateB: [UInt8]) throws(Failure) -> [UInt8] {
        guard Self.isInRange(verifier), Self.isInRange(privateB) else { throw .invalidInput }
        guard var kv = arithmetic.modMul(Self.multiplier, verifier, modulus: Self.prime) else { throw .invalidInput }
        defer { Self.wipe(&kv) }
        guard var gb = arithmetic.modExp(Self.generator, privateB, modulus: Self.prime, secretExponent: true) else {
            throw .invalidInput
        }
        defer { Self.wipe(&gb) }
        // B = 0 would make S = 0 for any password; with a random b it does not happen, but it is cheap to refuse.
        guard let b = arithmetic.modAdd(kv, gb, modulus: Self.prime), !b.isEmpty else { throw .invalidInput }
        return b
    }

    /// The 16-byte key the client's `PASSWORD_CLAIM_SIGNATURE` is made with, if it knew the password.
    /// - Parameters:
    ///   - publicAHex: `SRP_A` as the client sent it at `InitiateAuth`.
    ///   - publicB: B as returned by `publicB` (sealed in SECRET_BLOCK or recomputed).
    package func passwordClaimKey(publicAHex: String, publicB: [UInt8], verifier: [UInt8], privateB: [UInt8]) throws(Failure) -> [UInt8] {
        // A ≥ N is refused outright: clients send g^a mod N. A mod N = 0 would make S = 0.
        guard let a = CognitoSRPHex.magnitude(fromHex: publicAHex, maxDigits: 2 * Self.prime.count + 2),
            a.count <= Self.prime.count
        else { throw .invalidPublicA }
        guard let aModN = arithmetic.mod(a, modulus: Self.prime) else { throw .invalidInput }
        guard !aModN.isEmpty else { throw .invalidPublicA }
        guard Self.isInRange(verifier), Self.isInRange(privateB), Self.isInRange(publicB) else { throw .invalidInput }

        let u = CognitoSRPHex.stripped(Array(SHA256.hash(data: CognitoSRPHex.padded(a) + CognitoSRPHex.padded(publicB))))
        guard !u.isEmpty else { throw .zeroScrambler }
        // S = (A · v^u)^b mod N
        guard var vu = arithmetic.modExp(verifier, u, modulus: Self.prime, secretExponent: false) else { throw .invalidInput }
        defer { Self.wipe(&vu) }
        guard var base = arithmetic.modMul(a, vu, modulus: Self.prime) else { throw .invalidInput }
        defer { Self.wipe(&base) }
        guard var s = arithmetic.modExp(base, privateB, modulus: Self.prime, secretExponent: true) else { throw .invalidInput }
        defer { Self.wipe(&s) }
        var ikm = CognitoSRPHex.padded(s)
        defer { Self.wipe(&ikm) }
        let key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: ikm),
            salt: CognitoSRPHex.padded(u),
            info: Self.keyInfo,
            outputByteCount: 16
        )
        return key.withUnsafeBytes { Array($0) }
    }

    /// HMAC-SHA256(key, poolName ‖ userIDForSRP ‖ secretBlock ‖ timestamp), the raw 32 bytes of
    /// `PASSWORD_CLAIM_SIGNATURE` (which is their standard base64).
    /// - Parameters:
    ///   - secretBlock: The bytes of `PASSWORD_CLAIM_SECRET_BLOCK` (its base64 decoded).
    ///   - timestamp: `TIMESTAMP` exactly as the client sent it, never re-formatted.
    package static func signature(key: [UInt8], poolName: String, userIDForSRP: String, secretBlock: [UInt8], timestamp: String) -> [UInt8] {
        var hmac = HMAC<SHA256>(key: SymmetricKey(data: key))
        hmac.update(data: Array(poolName.utf8))
        hmac.update(data: Array(userIDForSRP.utf8))
        hmac.update(data: secretBlock)
        hmac.update(data: Array(timestamp.utf8))
        return Array(hmac.finalize())
    }

    /// Whether `signatureBase64` (`PASSWORD_CLAIM_SIGNATURE`) proves the password behind `verifier`.
    ///
    /// Any malformed input (bad SRP_A, bad base64, u = 0) is `false`. This does not look at the
    /// timestamp's age (`CognitoSRPTimestamp.isFresh`) nor stop a replay: SECRET_BLOCK must expire
    /// and be accepted once.
    package func verifyPasswordClaim(
        publicAHex: String,
        publicB: [UInt8],
        verifier: [UInt8],
        privateB: [UInt8],
        poolName: String,
        userIDForSRP: String,
        secretBlock: [UInt8],
        timestamp: String,
        signatureBase64: String
    ) -> Bool {
        guard let claimed = Data(base64Encoded: signatureBase64), claimed.count == 32,
            var key = try? passwordClaimKey(publicAHex: publicAHex, publicB: publicB, verifier: verifier, privateB: privateB)
        else { return false }
        defer { Self.wipe(&key) }
        let expected = Self.signature(
            key: key,
            poolName: poolName,
            userIDForSRP: userIDForSRP,
            secretBlock: secretBlock,
            timestamp: timestamp
        )
        return ConstantTime.equals(expected, Array(claimed))
    }

    /// 0 < value < N.
    static func isInRange(_ value: [UInt8]) -> Bool {
        let magnitude = CognitoSRPHex.stripped(value)
        guard !magnitude.isEmpty, magnitude.count <= prime.count else { return false }
        return magnitude.count < prime.count || magnitude.lexicographicallyPrecedes(prime)
    }

    /// Overwrites a secret in place before its storage is released.
    static func wipe(_ bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBufferPointer { buffer in
            for index in buffer.indices { buffer[index] = 0 }
        }
    }
}

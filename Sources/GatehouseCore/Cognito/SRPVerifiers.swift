import Foundation
import GatehouseInfrastructure

/// Makes and opens the users' Cognito SRP verifiers. A verifier lets anyone who holds it test a
/// password guess with two SHA-256 and one modular exponentiation (no work factor), so it is stored
/// sealed under the master key, with the user, the pool name and the password hash it belongs to as
/// associated data: a verifier left behind by a password change it did not see (an older instance in a
/// rolling upgrade), or made for another pool id, does not open and counts as none.
public struct SRPVerifiers: Sendable {
    let srp: CognitoSRP?
    /// The pool the verifiers are made for (its name is part of each).
    package let pool: UserPoolID
    let box: SecretBox
    let random: any RandomSource

    /// - Parameters:
    ///   - pool: The pool id (its name is part of every verifier).
    ///   - box: Seals the verifiers.
    ///   - random: Salts.
    public init(pool: UserPoolID, box: SecretBox, random: any RandomSource) {
        self.srp = CognitoSRP.system
        self.pool = pool
        self.box = box
        self.random = random
    }

    /// Whether SRP can run here (the system's libcrypto is loaded).
    public var isAvailable: Bool { srp != nil }

    /// The verifier of `password` for the user, or `nil` when SRP cannot run here.
    /// - Parameters:
    ///   - password: The password being set (or just verified).
    ///   - userID: The user's `sub`, which is `USER_ID_FOR_SRP`.
    ///   - passwordHash: The hash stored with it.
    /// - Returns: The sealed verifier.
    public func make(password: String, userID: String, passwordHash: String) -> SRPVerifier? {
        guard let srp else { return nil }
        let salt = CognitoSRP.makeSalt(randomBytes: random.bytes)
        guard var verifier = try? srp.verifier(poolName: pool.name, userIDForSRP: userID, password: password, salt: salt),
            let sealed = try? box.seal(verifier, context: Self.context(userID: userID, pool: pool.name, passwordHash: passwordHash))
        else { return nil }
        for index in verifier.indices { verifier[index] = 0 }
        return SRPVerifier(salt: CognitoSRPHex.paddedHex(salt), sealed: sealed)
    }

    /// The user's verifier and salt, if they have one that belongs to their current password and this pool.
    /// - Parameter user: The user.
    /// - Returns: The verifier bytes and the salt as sent, or `nil`.
    package func open(_ user: UserRecord) -> (verifier: [UInt8], salt: String)? {
        guard let stored = user.srpVerifier, let hash = user.passwordHash,
            let verifier = try? box.open(stored.sealed, context: Self.context(userID: user.id, pool: pool.name, passwordHash: hash))
        else { return nil }
        return (verifier, stored.salt)
    }

    /// Whether `user` has a verifier that opens (a password sign-in makes one when not).
    func hasCurrent(_ user: UserRecord) -> Bool { open(user) != nil }

    static func context(userID: String, pool: String, passwordHash: String) -> String {
        "srp-verifier/v1:\(userID):\(pool):\(passwordHash)"
    }
}

import Foundation
import GatehouseInfrastructure
import Logging

/// Cognito's choice-based sign-in (`USER_AUTH` without a preferred challenge, or with one this pool does
/// not offer): the `SELECT_CHALLENGE` step, which lists the first factors the pool offers and hands out
/// a sealed `Session` that the client's choice (`ANSWER`) must come back with. The factor chosen is then
/// run by its own use case (``PasswordAuthentication``, ``Passkeys``), with its own throttles.
///
/// Enumeration: the list is the pool's (the password; SRP where the system's libcrypto is loaded;
/// passkeys where an RP id is set), the same for every address — known, unknown, unconfirmed, with or
/// without passkeys — so it never tells whether an account exists or what it has. Real Cognito lists
/// only what the user can use, which tells both; the factors' own answers keep the rule here (a wrong
/// password and an unknown user are one refusal, SRP and passkey options have decoys).
public struct SignInChoices: Sendable {
    let passwords: PasswordAuthentication
    let passkeys: Passkeys
    let store: any GatehouseStore
    let box: SecretBox
    let clock: any TimeSource
    let random: any RandomSource

    /// Creates the use case.
    /// - Parameters:
    ///   - passwords: Says whether SRP can run here.
    ///   - passkeys: Says whether passkeys are on.
    ///   - store: Where a session's single use is recorded.
    ///   - box: Seals sessions.
    ///   - clock: The time source.
    ///   - random: Session ids.
    public init(
        passwords: PasswordAuthentication,
        passkeys: Passkeys,
        store: any GatehouseStore,
        box: SecretBox,
        clock: any TimeSource,
        random: any RandomSource
    ) {
        self.passwords = passwords
        self.passkeys = passkeys
        self.store = store
        self.box = box
        self.clock = clock
        self.random = random
    }

    /// The first factors this pool offers, in Cognito's order; the same for every address.
    public var offered: [SignInChoice] {
        [.password] + (passwords.offersSRP ? [.passwordSRP] : []) + (passkeys.settings != nil ? [.webAuthn] : [])
    }

    /// Offers the choice for an address: the factors and the sealed session (three minutes, one answer,
    /// this address and app client only). Writes nothing, and answers the same for every address.
    /// - Parameters:
    ///   - username: The address as typed (`USERNAME`).
    ///   - clientID: The app client.
    /// - Returns: The session and the factors offered.
    /// - Throws: `invalid_request` for a malformed address.
    public func offer(username: String, clientID: String) throws -> (session: String, choices: [SignInChoice]) {
        let email = try EmailAddress(username)
        let choices = offered
        let session = SignInChoiceSession(
            address: SignInChoiceSession.address(email, box: box),
            clientID: clientID,
            offered: choices,
            expiresAt: clock.now().addingTimeInterval(SignInChoiceSession.lifetime),
            id: random.token(bytes: 16)
        )
        return (try session.seal(with: box), choices)
    }

    /// Accepts the client's choice once: the session must open, be unexpired, be for this address and
    /// app client, and offer the factor chosen; then its single use is recorded (on any instance), before
    /// the factor runs, so a session answers one choice whatever the outcome.
    /// - Parameters:
    ///   - session: The `Session` that came back.
    ///   - username: The address the answer names (`USERNAME`).
    ///   - clientID: The app client the answer came for.
    ///   - answer: The factor chosen.
    ///   - logger: The request's logger.
    /// - Throws: `invalid_session` (forged, expired, used, another address or client; one answer for all),
    ///   `invalid_request` for a malformed address or a factor the session did not offer.
    public func redeem(session: String, username: String, clientID: String, answer: SignInChoice, logger: Logger) async throws {
        let email = try EmailAddress(username)
        func refused(_ cause: String) -> GatehouseError {
            logger.info("sign-in choice refused", metadata: ["error.cause": .string(cause)])
            return GatehouseError(.invalidSession, "This sign-in step is invalid, expired or used. Start again.", cause: cause)
        }
        guard let opened = SignInChoiceSession.open(session, with: box) else { throw refused("session does not open") }
        let now = clock.now()
        guard opened.expiresAt > now else { throw refused("session expired") }
        guard ConstantTime.equals(opened.address, SignInChoiceSession.address(email, box: box)) else { throw refused("session of another address") }
        guard ConstantTime.equals(opened.clientID, clientID) else { throw refused("session of another app client") }
        guard opened.offered.contains(answer) else {
            throw GatehouseError.invalidRequest(
                "ANSWER must be one of the AvailableChallenges: \(opened.offered.map(\.rawValue).joined(separator: ", "))."
            )
        }
        let key = Digests.sha256Base64URL("select-challenge:" + opened.id)
        let first = try await store.write { tx in
            try await tx.recordAuthorizationStateUse(hash: key, codeChallenge: "select-challenge", expiresAt: opened.expiresAt, at: now)
        }
        guard first else { throw refused("session answered before") }
    }
}

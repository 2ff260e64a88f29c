import Foundation
import Logging

extension EmbeddedUserPool {
    /// The owner of a number's sign-in code: a keyed hash, so a database dump lists no numbers.
    func phoneCodeOwner(_ number: PhoneNumber) -> String {
        "phone:" + box.keyedHash("phone-code-owner", number.e164)
    }

    /// The embedded pool offers phone sign-in wherever the country policy allows it.
    public func checkPhoneAvailable() throws {}

    /// Stores a fresh sign-in code for the number (replacing an earlier one, so only the latest text
    /// redeems) and queues its text, in one transaction.
    /// - Parameters:
    ///   - number: The number, already allowed by the country policy.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: A store error.
    public func sendSignInCode(to number: PhoneNumber, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let now = clock.now()
        let lifetime = settings.phoneCodeLifetime
        let owner = phoneCodeOwner(number)
        try await store.write { tx in
            let (code, record) = newCode(for: owner, purpose: .phoneSignIn, lifetime: lifetime, now: now)
            try await tx.replaceCode(record)
            try await mail.enqueue(sms: SMSRequest(kind: .signIn, to: number.e164, code: code, lifetime: Int(lifetime)), now: now, in: tx)
        }
        mail.committed()
        logger.info("phone sign-in code queued", metadata: ["phone": .string(number.masked)])
        return CodeDelivery(sms: number)
    }

    /// Redeems a sign-in code. The code, the account (found by its verified number, or created with
    /// it) and the session are one transaction, and the code is deleted in it: two requests with the
    /// right code sign in once (the second finds no code: `code_mismatch`).
    /// - Parameters:
    ///   - number: The number.
    ///   - code: The normalised code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The tokens, `is_new_user`, and what changed.
    /// - Throws: `code_mismatch`, `code_expired`, a store error.
    public func verifySignInCode(number: PhoneNumber, code: String, client: ClientInfo, logger: Logger) async throws -> ProviderSignInOutcome {
        enum Outcome: Sendable {
            case signedIn(UserRecord, SessionRecord, isNew: Bool)
            case check(CodeCheck)
        }
        let owner = phoneCodeOwner(number)
        let start = issuer.prepare(method: "phone", client: client)
        var outcome: Outcome?
        for attempt in 0..<3 {
            do {
                outcome = try await store.write { tx in
                    let check = try await checkCode(code, owner: owner, purpose: .phoneSignIn, now: start.at, in: tx)
                    guard case .accepted = check else { return .check(check) }
                    try await tx.deleteCode(userID: owner, purpose: .phoneSignIn)
                    if let user = try await tx.user(phone: number.e164) {
                        return .signedIn(user, try await issuer.record(start, for: user.id, in: tx), isNew: false)
                    }
                    let user = UserRecord(
                        id: random.uuid(),
                        email: nil,
                        emailKey: nil,
                        emailVerified: false,
                        passwordHash: nil,
                        confirmed: true,
                        name: nil,
                        phone: number.e164,
                        createdAt: start.at,
                        updatedAt: start.at
                    )
                    try await tx.insertUser(user)
                    try await tx.insertIdentity(phoneIdentity(for: user.id, at: start.at))
                    try await audit(.make(.signedUp, userID: user.id, detail: "phone", origin: start.origin, at: start.at, random: random), in: tx)
                    return .signedIn(user, try await issuer.record(start, for: user.id, in: tx), isNew: true)
                }
                break
            } catch is StoreConflict where attempt < 2 {
                continue  // the number was added to an account meanwhile; look again (the code is intact)
            }
        }
        switch outcome {
        case .signedIn(let user, let session, let isNew):
            let extra = try await issuer.hookClaims(afterRecording: session, user: user)
            logger.info("signed in", metadata: ["user.sub": .string(user.id), "auth.method": "phone", "user.new": .stringConvertible(isNew)])
            let tokens = try issuer.issueTokens(start, session: session, user: user, nonce: nil, isNewUser: isNew, extra: extra)
            return ProviderSignInOutcome(tokens: tokens, events: isNew ? [] : [.profileChanged(sub: user.id)])
        case .check(.expired):
            throw GatehouseError.codeExpired
        case .check(.mismatch), .check(.accepted), nil:
            throw GatehouseError.codeMismatch
        }
    }

    /// Stores a code that adds `number` to the caller's account — its hash binds the number, so it
    /// redeems only with the same number — and queues its text. The number is not looked up: the
    /// answer is the same whether or not another account has it.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - number: The number, already allowed by the country policy.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: Where the code went, masked.
    /// - Throws: `unauthorized` when the user is gone.
    public func sendLinkCode(principal: Principal, number: PhoneNumber, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
        let now = clock.now()
        let lifetime = settings.phoneCodeLifetime
        try await store.write { tx in
            guard let user = try await tx.user(id: principal.sub) else { throw GatehouseError.unauthorized(cause: "user no longer exists") }
            let (code, record) = newCode(for: user.id, purpose: .linkPhone, lifetime: lifetime, now: now, bound: number.e164)
            try await tx.replaceCode(record)
            try await mail.enqueue(sms: SMSRequest(kind: .linkPhone, to: number.e164, code: code, lifetime: Int(lifetime)), now: now, in: tx)
        }
        mail.committed()
        logger.info("phone verification code queued", metadata: ["user.sub": .string(principal.sub), "phone": .string(number.masked)])
        return CodeDelivery(sms: number)
    }

    /// Redeems a code from ``sendLinkCode(principal:number:client:logger:)``: the number becomes the
    /// account's verified number (replacing an earlier one) and the profile follows.
    /// - Parameters:
    ///   - principal: The caller.
    ///   - number: The number the code was sent to.
    ///   - code: The normalised code.
    ///   - client: Who asks.
    ///   - logger: The request's logger.
    /// - Returns: The profile changed.
    /// - Throws: `code_mismatch`, `code_expired`, `conflict` (another account has the number),
    ///   `unauthorized` (the user is gone).
    public func verifyLinkCode(
        principal: Principal,
        number: PhoneNumber,
        code: String,
        client: ClientInfo,
        logger: Logger
    ) async throws -> [DomainEvent] {
        let now = clock.now()
        let check: CodeCheck
        do {
            check = try await store.write { tx in
                guard var user = try await tx.user(id: principal.sub) else { throw GatehouseError.unauthorized(cause: "user no longer exists") }
                let check = try await checkCode(code, owner: user.id, purpose: .linkPhone, bound: number.e164, now: now, in: tx)
                guard case .accepted = check else { return check }
                if let holder = try await tx.user(phone: number.e164), holder.id != user.id {
                    throw GatehouseError(.conflict, "This phone number belongs to another account.")
                }
                try await tx.deleteCode(userID: user.id, purpose: .linkPhone)
                user.phone = number.e164
                user.updatedAt = now
                try await tx.updateUser(user)
                if try await tx.identity(provider: "phone", subject: user.id) == nil {
                    try await tx.insertIdentity(phoneIdentity(for: user.id, at: now))
                }
                try await syncProfile(with: user, in: tx)
                return check
            }
        } catch is StoreConflict {
            // Another account verified the number between our look-up and our write.
            throw GatehouseError(.conflict, "This phone number belongs to another account.")
        }
        switch check {
        case .accepted:
            logger.info("phone number added", metadata: ["user.sub": .string(principal.sub), "phone": .string(number.masked)])
            return [.profileChanged(sub: principal.sub)]
        case .expired:
            throw GatehouseError.codeExpired
        case .mismatch:
            throw GatehouseError.codeMismatch
        }
    }

    func phoneIdentity(for userID: String, at now: Date) -> IdentityRecord {
        IdentityRecord(provider: "phone", providerSubject: userID, userID: userID, email: nil, emailVerified: false, linkedAt: now)
    }
}

import Foundation
import GatehouseInfrastructure
import GatehouseStore
import GatehouseTesting
import Logging
import Testing

@testable import GatehouseCore

/// Sign-in policy apart from any pool: ``PasswordAuthentication`` and ``SessionIssuer`` over a fake
/// password strategy that proves whom it is told to. The store is real (the issuer records sessions in
/// it, the limiter counts in it); no `EmbeddedUserPool` is built.
@Suite("Policy: password sign-in and the session issuer over a fake strategy", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SignInPolicyTests {
    /// Proves `subject` for the password `right`, refuses every other one, and notes each call in order.
    final class FakePasswords: PasswordStrategy {
        let subject: UserRecord
        let calls = LockedBox<[String]>([])
        /// Whether sign-up fails as an unreachable upstream pool would.
        let failSignUp = LockedBox(false)
        let refuseAdmission: Bool
        let name = "fake"

        init(subject: UserRecord, refuseAdmission: Bool = false) {
            self.subject = subject
            self.refuseAdmission = refuseAdmission
        }

        func note(_ call: String) { calls.withLock { $0.append(call) } }
        var asked: [String] { calls.withLock { $0 } }

        func checkNewPassword(_ password: String, email: EmailAddress?) throws {}
        func checkPresentedPassword(_ password: String) throws {
            note("check")
            guard password.count <= 64 else { throw GatehouseError.invalidCredentials }
        }
        func admit(client: ClientInfo) throws {
            note("admit")
            if refuseAdmission { throw GatehouseError.tooManyRequests(retryAfter: 1) }
        }
        func signUp(email: EmailAddress, password: String, name: String?, client: ClientInfo, logger: Logger) async throws -> SignUpOutcome {
            note("signUp")
            if failSignUp.withLock({ $0 }) { throw GatehouseError.upstreamUnavailable(cause: "test") }
            return .taken(SignUpResult(userSub: "x", userConfirmed: false, codeDelivery: CodeDelivery(destination: email.masked)), owner: subject)
        }
        func sendTakenAddressNotice(to owner: UserRecord, email: EmailAddress) async throws { note("notice") }
        func confirmSignUp(email: EmailAddress, code: String, client: ClientInfo, logger: Logger) async throws -> [DomainEvent] { [] }
        func resendConfirmationCode(email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
            CodeDelivery(destination: email.masked)
        }
        func verifyPassword(email: EmailAddress, password: String, client: ClientInfo, logger: Logger) async throws -> SignInProof {
            note("verify")
            guard password == "right" else { throw GatehouseError.invalidCredentials }
            return .subject(VerifiedSubject(user: subject, method: "password"))
        }
        func forgotPassword(email: EmailAddress, client: ClientInfo, logger: Logger) async throws -> CodeDelivery {
            CodeDelivery(destination: email.masked)
        }
        func resetPassword(
            email: EmailAddress,
            code: String,
            newPassword: String,
            client: ClientInfo,
            logger: Logger
        ) async throws
            -> [DomainEvent]
        { [] }
        func signInAccountKey(of principal: Principal) async throws -> String { principal.sub }
        func changePassword(
            principal: Principal,
            currentPassword: String,
            newPassword: String,
            client: ClientInfo,
            logger: Logger
        ) async throws
            -> [DomainEvent]
        {
            note("change")
            guard currentPassword == "right" else { throw GatehouseError.invalidCredentials }
            guard newPassword != "weak" else { throw GatehouseError(.invalidPassword, "The new password is too weak.") }
            return []
        }
        func verifyCurrentPassword(principal: Principal, password: String, client: ClientInfo) async throws {}
    }

    static let email = "policy@example.com"
    static let logger = Logger(label: "policy")

    static func user(disabled: Bool = false, at now: Date) -> UserRecord {
        UserRecord(
            id: UUID().uuidString.lowercased(),
            email: email,
            emailKey: email,
            emailVerified: true,
            passwordHash: nil,
            confirmed: true,
            name: "Policy",
            createdAt: now,
            updatedAt: now,
            disabledAt: disabled ? now : nil
        )
    }

    /// The use case and its issuer over `strategy`, on `store` (the user row is written first: the
    /// session's foreign key needs it, and the issuer reads the disabled flag from it).
    struct Rig {
        let passwords: PasswordAuthentication
        let issuer: SessionIssuer
        let store: any GatehouseStore
        let box: SecretBox
        let clock: TestClock
        let client = ClientInfo(address: "192.0.2.7")

        init(store: any GatehouseStore, strategy: FakePasswords, clock: TestClock) throws {
            var limits = RateLimitSettings()
            limits.refusalDelay = 0
            let box = try SecretBox(masterKey: Array(repeating: 7, count: 32))
            let random = SystemRandomSource()
            let tokens = TokenService(
                settings: TokenSettings(issuer: "https://policy.example", clientID: "policy-client"),
                keyring: FixedKeys.keyring(),
                clock: clock,
                random: random
            )
            issuer = SessionIssuer(
                settings: PoolSettings(rateLimits: limits),
                store: store,
                tokens: tokens,
                deliveries: DeliveryEnqueuer(box: box, random: random, wakeUp: DeliveryWakeUp()),
                box: box,
                clock: clock,
                random: random,
                claimsHook: nil
            )
            passwords = PasswordAuthentication(
                strategy: strategy,
                issuer: issuer,
                limiter: RateLimiter(store: store, box: box, clock: clock, settings: limits),
                events: NoAuthEvents(),
                domainEvents: DomainEvents()
            )
            self.store = store
            self.box = box
            self.clock = clock
        }

        func signIn(_ password: String) async -> Result<AuthTokens, GatehouseError> {
            do {
                return .success(
                    try await passwords.signIn(email: SignInPolicyTests.email, password: password, client: client, logger: SignInPolicyTests.logger)
                )
            } catch {
                return .failure(error as? GatehouseError ?? .internalError(cause: "\(error)"))
            }
        }
    }

    static func withRig(
        _ database: TestDatabase,
        disabled: Bool = false,
        refuseAdmission: Bool = false,
        _ body: @escaping @Sendable (Rig, FakePasswords, UserRecord) async throws -> Void
    ) async throws {
        try await database.withStore { store in
            let clock = TestClock()
            let user = Self.user(disabled: disabled, at: clock.now())
            try await store.write { tx in try await tx.insertUser(user) }
            let strategy = FakePasswords(subject: user, refuseAdmission: refuseAdmission)
            try await body(try Rig(store: store, strategy: strategy, clock: clock), strategy, user)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aVerifiedSubjectGetsOneRecordedSessionAndTokensThatNameIt(_ database: TestDatabase) async throws {
        try await Self.withRig(database) { rig, strategy, user in
            let tokens = try await rig.signIn("right").get()
            let sessionID = try #require(tokens.sessionID)
            let found = try await rig.store.read { try await $0.session(id: sessionID) }
            let session = try #require(found)
            #expect(session.userID == user.id && session.method == "password" && session.isActive)
            #expect(tokens.issuedTo?.sub == user.id && tokens.issuedTo?.sessionID == sessionID, "the use case says for whom")
            #expect(tokens.issuedTo?.accessToken == tokens.accessToken)
            #expect(strategy.asked == ["check", "admit", "verify"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func anAccountWithASecondFactorGetsAChallengeAndNoSession(_ database: TestDatabase) async throws {
        try await Self.withRig(database) { rig, _, user in
            let secret = try rig.box.seal(Array(repeating: 1, count: 20), context: "totp:" + user.id)
            try await rig.store.write { tx in
                try await tx.putTOTP(TOTPRecord(userID: user.id, sealedSecret: secret, confirmedAt: nil, lastStep: 0, createdAt: rig.clock.now()))
                _ = try await tx.acceptTOTPStep(userID: user.id, step: 1, confirmAt: rig.clock.now())
            }
            guard case .failure(let error) = await rig.signIn("right") else {
                Issue.record("a first factor alone signed in an account with a second factor")
                return
            }
            #expect(error.code == .mfaRequired)
            let challenge = try #require(error.mfaToken.flatMap { MFAChallenge.open($0, with: rig.box) })
            #expect(challenge.userID == user.id && challenge.method == "password")
            let active = try await rig.store.read { try await $0.activeSessions(userID: user.id) }
            #expect(active.isEmpty, "nothing recorded")
            // The second factor's own method passes the same gate.
            let completed = try await rig.issuer.start(
                VerifiedSubject(user: user, method: "password+otp"),
                client: rig.client,
                logger: Self.logger
            )
            #expect(completed.issuedTo?.sub == user.id)
        }
    }

    @Test(arguments: TestDatabase.available)
    func aDisabledAccountGetsUserDisabledAfterTheRightPasswordAndNoSession(_ database: TestDatabase) async throws {
        try await Self.withRig(database, disabled: true) { rig, strategy, user in
            guard case .failure(let error) = await rig.signIn("right") else {
                Issue.record("a disabled account signed in")
                return
            }
            #expect(error.code == .userDisabled)
            #expect(strategy.asked == ["check", "admit", "verify"])
            let active = try await rig.store.read { try await $0.activeSessions(userID: user.id) }
            #expect(active.isEmpty)
        }
    }

    @Test(arguments: TestDatabase.available)
    func theThrottlesRunInTheirOrderAroundTheStrategy(_ database: TestDatabase) async throws {
        // A password no account can have is refused before the hashing queue or the throttles.
        try await Self.withRig(database) { rig, strategy, _ in
            guard case .failure(let tooLong) = await rig.signIn(String(repeating: "x", count: 65)) else {
                Issue.record("an impossible password signed in")
                return
            }
            #expect(tooLong.code == .invalidCredentials)
            #expect(strategy.asked == ["check"], "nothing after the presented-password check")

            // Five free wrong passwords, and the sixth that sets the account's block, are checked; the
            // next attempt is refused by the throttle without reaching the strategy, and so is the
            // right password while the block lasts.
            for _ in 0..<6 { _ = await rig.signIn("wrong") }
            #expect(strategy.asked.filter { $0 == "verify" }.count == 6)
            guard case .failure(let blocked) = await rig.signIn("wrong"), case .failure(let blockedRight) = await rig.signIn("right") else {
                Issue.record("the account's throttle let an attempt through")
                return
            }
            #expect(blocked.code == .tooManyRequests && blockedRight.code == .tooManyRequests)
            #expect(strategy.asked.filter { $0 == "verify" }.count == 6, "a blocked attempt is not verified")
        }
        // A client past its share of the hashing queue is refused before the strategy verifies anything.
        try await Self.withRig(database, refuseAdmission: true) { rig, strategy, _ in
            guard case .failure(let refused) = await rig.signIn("right") else {
                Issue.record("a client refused admission signed in")
                return
            }
            #expect(refused.code == .tooManyRequests)
            #expect(strategy.asked == ["check", "admit"])
        }
    }

    @Test(arguments: TestDatabase.available)
    func aPasswordChangeIsCheckedUnderTheAccountsSignInThrottle(_ database: TestDatabase) async throws {
        try await Self.withRig(database) { rig, strategy, user in
            let principal = Principal(sub: user.id, username: user.id, sessionID: "s", clientID: "c", scope: "", accessToken: "t")
            for _ in 0..<6 {
                await #expect(throws: GatehouseError.self) {
                    try await rig.passwords.changePassword(
                        principal: principal,
                        currentPassword: "wrong",
                        newPassword: "new",
                        client: rig.client,
                        logger: Self.logger
                    )
                }
            }
            let blocked = await #expect(throws: GatehouseError.self) {
                try await rig.passwords.changePassword(
                    principal: principal,
                    currentPassword: "right",
                    newPassword: "new",
                    client: rig.client,
                    logger: Self.logger
                )
            }
            #expect(blocked?.code == .tooManyRequests)
            #expect(strategy.asked.filter { $0 == "change" }.count == 6, "the blocked change never reached the strategy")
        }
    }
    @Test(arguments: TestDatabase.available)
    func aChangeTheNewPasswordPolicyRefusesGivesTheAttemptBack(_ database: TestDatabase) async throws {
        try await Self.withRig(database) { rig, strategy, user in
            let principal = Principal(sub: user.id, username: user.id, sessionID: "s", clientID: "c", scope: "", accessToken: "t")
            func change(to newPassword: String) async throws {
                try await rig.passwords.changePassword(
                    principal: principal,
                    currentPassword: "right",
                    newPassword: newPassword,
                    client: rig.client,
                    logger: Self.logger
                )
            }
            // Twice the account's limit of refusals: the right current password each time, so none is a failed guess.
            for _ in 0..<12 {
                let refused = await #expect(throws: GatehouseError.self) { try await change(to: "weak") }
                #expect(refused?.code == .invalidPassword)
            }
            try await change(to: "strong enough")
            #expect(strategy.asked.filter { $0 == "change" }.count == 13)
        }
    }
    @Test(arguments: TestDatabase.available)
    func aSignUpTheStrategyFailsLeavesTheAddresssMailQuota(_ database: TestDatabase) async throws {
        try await Self.withRig(database) { rig, strategy, _ in
            let address = "new@example.com"
            func resend() async throws {
                _ = try await rig.passwords.resendConfirmationCode(email: address, client: rig.client, logger: Self.logger)
            }
            strategy.failSignUp.withLock { $0 = true }
            let failed = await #expect(throws: GatehouseError.self) {
                _ = try await rig.passwords.signUp(email: address, password: "right", fullName: nil, client: rig.client, logger: Self.logger)
            }
            #expect(failed?.code == .upstreamUnavailable)
            #expect(strategy.asked.contains("signUp"))
            // The address's one-a-minute cool-down is untouched by the failure: its first mail still goes,
            // and the second is refused (the cool-down is live in this rig).
            try await resend()
            let second = await #expect(throws: GatehouseError.self) { try await resend() }
            #expect(second?.code == .tooManyRequests)
        }
    }
}

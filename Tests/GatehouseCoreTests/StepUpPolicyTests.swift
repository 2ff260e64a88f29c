import Foundation
import GatehouseInfrastructure
import GatehouseTesting
import Logging
import Testing

@testable import GatehouseCore

/// The step-up rule as policy, apart from any pool: a fake account strategy says how the session
/// signed in and what the account has, and the use case decides.
@Suite("Policy: step-up over a fake strategy")
struct StepUpPolicyTests {
    /// Answers step-up questions from fixed facts and records nothing else.
    struct FakeAccounts: AccountStrategy {
        let facts: StepUpFacts?

        func profileSeed(for principal: Principal, logger: Logger) async throws -> ProfileSeed {
            ProfileSeed(email: nil, emailVerified: false, name: nil)
        }
        func recordDisplayName(_ name: String?, sub: String, at now: Date, in tx: any StoreTransaction) async throws {}
        func deleteUpstreamAccount(principal: Principal, logger: Logger) async throws -> Bool { false }
        func removeAccountRecords(of sub: String, origin: AuditOrigin, in tx: any StoreTransaction) async throws {}
        func stepUpFacts(principal: Principal) async throws -> StepUpFacts? { facts }
    }

    /// Which passwords the fake accepts, and how often it was asked.
    final class PasswordProbe: Sendable {
        let asked = LockedBox(0)
        func confirm(_ password: String) throws {
            asked.withLock { $0 += 1 }
            guard password == "right" else { throw GatehouseError.invalidCredentials }
        }
    }

    static let principal = Principal(sub: "u1", username: "u1", sessionID: "s1", clientID: "c", scope: "openid", accessToken: "t")
    static let signedIn = Date(timeIntervalSince1970: 1_800_000_000)

    static func stepUp(_ facts: StepUpFacts?, maxAge: TimeInterval? = nil, at now: Date = signedIn, probe: PasswordProbe = PasswordProbe()) -> StepUp
    {
        StepUp(strategy: FakeAccounts(facts: facts), clock: TestClock(now), maxAge: maxAge) { _, password, _, _ in try probe.confirm(password) }
    }

    static func facts(_ session: SignInMethod, _ account: Set<SignInMethod>) -> StepUpFacts {
        StepUpFacts(session: session, authenticatedAt: signedIn, account: account)
    }

    static func outcome(_ stepUp: StepUp, password: String? = nil) async -> GatehouseError.Code? {
        do {
            try await stepUp.require(
                principal: principal,
                currentPassword: password,
                client: ClientInfo(address: "192.0.2.1"),
                logger: Logger(label: "t")
            )
            return nil
        } catch {
            return (error as? GatehouseError)?.code
        }
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var session: SignInMethod
        var account: Set<SignInMethod>
        var passes: Bool
        var testDescription: String { "\(session) on \(account.map(\.rawValue).sorted())" }
    }

    @Test(arguments: [
        Case(session: .sms, account: [.sms], passes: true), Case(session: .sms, account: [.sms, .password], passes: false),
        Case(session: .sms, account: [.sms, .social], passes: false), Case(session: .password, account: [.sms, .password], passes: true),
        Case(session: .social, account: [.sms, .password, .social], passes: true),
        Case(session: .password, account: [.password, .social], passes: true),
    ])
    func aSessionAtLeastAsStrongAsTheAccountsStrongestMethodPasses(_ c: Case) async {
        let code = await Self.outcome(Self.stepUp(Self.facts(c.session, c.account)))
        #expect(code == (c.passes ? nil : .reauthenticationRequired), "\(c.testDescription)")
    }

    @Test func theCurrentPasswordStandsInOnlyWhenRightAndOnlyWhereThereIsOne() async {
        let probe = PasswordProbe()
        let weak = Self.stepUp(Self.facts(.sms, [.sms, .password]), probe: probe)
        #expect(await Self.outcome(weak, password: "wrong") == .invalidCredentials)
        #expect(await Self.outcome(weak, password: "right") == nil)
        #expect(probe.asked.withLock { $0 } == 2)
        let noPassword = Self.stepUp(Self.facts(.sms, [.sms, .social]), probe: probe)
        #expect(await Self.outcome(noPassword, password: "right") == .invalidRequest)
        #expect(probe.asked.withLock { $0 } == 2, "never checked against an account without one")
    }

    @Test func aMaximumAgeRefusesAnOldSignInAndAProviderThatCannotSayIsNotChecked() async {
        let facts = Self.facts(.password, [.password])
        #expect(await Self.outcome(Self.stepUp(facts, maxAge: 600, at: Self.signedIn.addingTimeInterval(600))) == nil)
        #expect(await Self.outcome(Self.stepUp(facts, maxAge: 600, at: Self.signedIn.addingTimeInterval(601))) == .reauthenticationRequired)
        #expect(await Self.outcome(Self.stepUp(nil, maxAge: 1, at: Self.signedIn.addingTimeInterval(3600))) == nil)
    }
}

import Foundation
import Testing

@testable import Gatehouse

/// Phone sign-in and adding a number against the real server, with the codes read from its SMS outbox.
/// Runs only against a server binary that has phone sign-in (see ``GatehouseServerProcess/supportsPhoneSignIn``).
///
/// A number gets one text a minute, and some checks need a second text to the same number (signing in again, a
/// second account claiming it): each test waits out that cool-down at most once, and the tests, each with its own
/// server, run in parallel, so the waits overlap.
@Suite(
    "Phone sign-in end to end against a real server",
    .enabled("the server binary has phone sign-in") { await GatehouseServerProcess.supportsPhoneSignIn }
)
struct PhoneEndToEndTests {
    /// Distinct numbers in the 555-01xx range reserved for fiction, under North America's code (allowed here).
    static func numbers(_ count: Int) -> [String] { (100...199).shuffled().prefix(count).map { "+14155550\($0)" } }

    /// Texts a code to `number` and returns it; a cool-down the server asks for (429) is waited out once.
    func textedCode(_ server: GatehouseServerProcess, _ number: String, send: () async throws -> CodeDelivery) async throws -> String {
        var sent = Date()
        let delivery: CodeDelivery
        do {
            delivery = try await send()
        } catch let error as GatehouseError where error.code == .tooManyRequests {
            guard case .server(let answer) = error, let wait = answer.retryAfter, wait <= 90 else { throw error }
            try await Task.sleep(nanoseconds: UInt64(wait) * 1_000_000_000 + 100_000_000)
            sent = Date()
            delivery = try await send()
        }
        #expect(delivery.medium == "SMS" && !delivery.destination.isEmpty)
        #expect(!delivery.destination.contains(number.dropFirst(2)), "the number is masked: \(delivery.destination)")
        return try await server.latestSMSCode(to: number, since: sent)
    }

    @Test func signingInWithAPhoneNumberCreatesTheAccountThenSignsItIn() async throws {
        let server = try GatehouseServerProcess(environment: GatehouseServerProcess.phoneEnvironment)
        defer { server.stop() }
        let storeURL = server.dataDirectory.appendingPathComponent("client/session.json")
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL), store: FileTokenStore(url: storeURL))
        var changes = client.authStateChanges.makeAsyncIterator()
        #expect(await changes.next() == AuthStateChange(event: .initialSession, session: nil))
        let number = Self.numbers(1)[0]

        let code = try await textedCode(server, number) { try await client.sendPhoneCode(to: number) }
        let wrong = code == "000000" ? "111111" : "000000"
        await expectError(.codeMismatch) { try await client.signInWithPhone(number, code: wrong) }
        #expect(client.currentSession == nil)
        let first = try await client.signInWithPhone(number, code: code)
        #expect(first.isNewUser == true, "a number never seen before makes an account")
        #expect(try FileTokenStore(url: storeURL).load() == first.session, "the session is stored")
        #expect(await changes.next() == AuthStateChange(event: .signedIn, session: first.session))
        let profile = try await client.profile()
        #expect(profile.phone == number && profile.phoneVerified && profile.email == nil)
        let user = try #require(client.currentUser)
        #expect(user.sub == profile.sub && user.phone == number && user.phoneVerified, "the ID token carries the number")

        try await client.signOut()
        let again = try await textedCode(server, number) { try await client.sendPhoneCode(to: number) }
        let second = try await client.signInWithPhone(number, code: again)
        #expect(second.isNewUser == false)
        #expect(try await client.profile().sub == profile.sub, "the same account")
        let spent: (GatehouseError) -> Bool = { $0.code == .codeMismatch || $0.code == .codeExpired }
        await expectError(spent) { try await client.signInWithPhone(number, code: again) }
    }

    @Test func addingANumberToAnEmailAccount() async throws {
        let server = try GatehouseServerProcess(environment: GatehouseServerProcess.phoneEnvironment)
        defer { server.stop() }
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let email = EndToEndTests.email("ph")
        try await EndToEndTests().signedUp(server, client, email)
        try await client.signIn(email: email, password: "correct horse 9")
        let before = try await client.profile()
        #expect(before.phone == nil && !before.phoneVerified)
        let number = Self.numbers(1)[0]

        let code = try await textedCode(server, number) { try await client.addPhone(number) }
        await expectError(.codeMismatch) { _ = try await client.verifyPhone(number, code: code == "000000" ? "111111" : "000000") }
        let profile = try await client.verifyPhone(number, code: code)
        #expect(profile.sub == before.sub && profile.email == email && profile.phone == number && profile.phoneVerified)
        #expect(try await client.profile() == profile)
        try await client.refresh()
        #expect(client.currentUser?.phone == number && client.currentUser?.phoneVerified == true, "the refreshed ID token has it")

        // The number now signs in to the same account (a second text to it: after the cool-down).
        let phoneClient = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let signInCode = try await textedCode(server, number) { try await phoneClient.sendPhoneCode(to: number) }
        let signedIn = try await phoneClient.signInWithPhone(number, code: signInCode)
        #expect(signedIn.isNewUser == false)
        #expect(try await phoneClient.profile().sub == before.sub, "the number signs in to the account it was added to")
    }

    @Test func anotherAccountCannotTakeANumber() async throws {
        let server = try GatehouseServerProcess(environment: GatehouseServerProcess.phoneEnvironment)
        defer { server.stop() }
        let numbers = Self.numbers(2)
        let owner = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let ownerCode = try await textedCode(server, numbers[0]) { try await owner.sendPhoneCode(to: numbers[0]) }
        try await owner.signInWithPhone(numbers[0], code: ownerCode)
        let other = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        let otherCode = try await textedCode(server, numbers[1]) { try await other.sendPhoneCode(to: numbers[1]) }
        try await other.signInWithPhone(numbers[1], code: otherCode)

        // The code is sent (the answer never tells whose the number is); the verification is refused.
        let takeCode = try await textedCode(server, numbers[0]) { try await other.addPhone(numbers[0]) }
        await expectError(.conflict) { _ = try await other.verifyPhone(numbers[0], code: takeCode) }
        #expect(try await other.profile().phone == numbers[1], "the other account keeps its own number")
        #expect(try await owner.profile().phone == numbers[0], "the owner keeps the number")
    }

    @Test func refusedNumbersAndADisabledServerAnswerInTheContractsTerms() async throws {
        let server = try GatehouseServerProcess(environment: GatehouseServerProcess.phoneEnvironment)
        defer { server.stop() }
        let client = GatehouseClient(configuration: .init(baseURL: server.baseURL))
        // A country not allowed, a premium-rate range, a national number, letters.
        for refused in ["+33612345678", "+19005550123", "4155550123", "+1415555abcd"] {
            await expectError(.invalidRequest) { try await client.sendPhoneCode(to: refused) }
        }
        let off = try GatehouseServerProcess()
        defer { off.stop() }
        let offClient = GatehouseClient(configuration: .init(baseURL: off.baseURL))
        await expectError(.providerDisabled) { try await offClient.sendPhoneCode(to: Self.numbers(1)[0]) }
    }
}

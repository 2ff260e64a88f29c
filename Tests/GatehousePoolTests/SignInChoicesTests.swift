import Foundation
import GatehouseCore
import GatehouseInfrastructure
import GatehouseTesting
import Testing

/// The `SELECT_CHALLENGE` session of Cognito's `USER_AUTH`: the same choices for every address, and a
/// session that answers once, for its address and app client only, for three minutes, and is no other
/// sealed value.
@Suite("Pool: USER_AUTH's choice and its session", .tags(.integration), .enabled(if: TestKind.runs("integration")))
struct SignInChoicesTests {
    /// One app per database for the tests below, reset before each (``PoolHarness/shared()``).
    static let apps = PoolHarness.shared()

    @Test(arguments: TestDatabase.available)
    func aSessionAnswersOnceForItsAddressAndClientOnly(_ database: TestDatabase) async throws {
        try await Self.apps.with(database) { h in
            let choices = h.built.useCases.signInChoices
            _ = try await h.confirmedUser("alice@example.com")
            let known = try choices.offer(username: "Alice@Example.com", clientID: "client-1")
            let unknown = try choices.offer(username: "nobody@example.com", clientID: "client-1")
            #expect(known.choices == unknown.choices && known.choices.first == .password && !known.choices.contains(.webAuthn))
            #expect(known.session != unknown.session)

            func code(_ body: () async throws -> Void) async -> GatehouseError.Code? {
                do {
                    try await body()
                    return nil
                } catch { return .of(error) }
            }
            func redeem(_ session: String, _ username: String = "alice@example.com", client: String = "client-1") async -> GatehouseError.Code? {
                await code { try await choices.redeem(session: session, username: username, clientID: client, answer: .password, logger: h.logger) }
            }
            #expect(await redeem(known.session, "bob@example.com") == .invalidSession, "another address")
            #expect(await redeem(known.session, client: "client-2") == .invalidSession, "another app client")
            let notOffered = await code {
                try await choices.redeem(
                    session: known.session,
                    username: "alice@example.com",
                    clientID: "client-1",
                    answer: .webAuthn,
                    logger: h.logger
                )
            }
            #expect(notOffered == .invalidRequest, "a factor the session did not offer")
            let box = try SecretBox(masterKey: Array(try require(Data(base64Encoded: PoolHarness.masterKey))))
            let mfaSealed = try box.seal(Array(#"{"u":"alice@example.com"}"#.utf8), context: "mfa-challenge")
            #expect(await redeem(mfaSealed) == .invalidSession, "another sealed value")
            #expect(await redeem("not a session") == .invalidSession)
            // Nothing above spent it (and the address matches case-insensitively, as sign-in does).
            #expect(await redeem(known.session, "ALICE@example.com") == nil)
            #expect(await redeem(known.session) == .invalidSession, "answered once")

            let late = try choices.offer(username: "alice@example.com", clientID: "client-1")
            h.clock.advance(by: 181)
            #expect(await redeem(late.session) == .invalidSession, "three minutes")

            // Six answers at once: one is accepted.
            let raced = try choices.offer(username: "alice@example.com", clientID: "client-1").session
            let outcomes = await withTaskGroup(of: GatehouseError.Code?.self) { group in
                for _ in 0..<6 { group.addTask { await redeem(raced) } }
                return await group.reduce(into: [GatehouseError.Code?]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 == nil }.count == 1 && outcomes.filter { $0 == .invalidSession }.count == 5, "\(outcomes)")
        }
    }
}

import Foundation
import GatehouseInfrastructure
import Testing

@testable import GatehouseCore

/// Overlapping reloads of the signing keys (a rotation's announcement, the event channel listening
/// again, the periodic reload): the keys of the load that started last win, whichever finishes last.
@Suite("Tokens: overlapping key reloads keep the newest keys")
struct KeyringReloadTests {
    static let now = Date(timeIntervalSince1970: 1_800_000_000)

    static func snapshot(_ name: String) throws -> Keyring.Snapshot {
        try Keyring.makeSnapshot(
            keys: [
                try SigningKey.generate(use: .idToken, kid: "\(name)-id", now: now, algorithm: .es256),
                try SigningKey.generate(use: .accessToken, kid: "\(name)-access", now: now, algorithm: .es256),
            ],
            now: now
        )
    }

    @Test func aLoadThatStartedEarlierAndFinishesLastDoesNotPutBackOlderKeys() async throws {
        let keyring = Keyring(try Self.snapshot("start"))
        let (release, releaseContinuation) = AsyncStream<Void>.makeStream()
        let (started, startedContinuation) = AsyncStream<Void>.makeStream()
        let older = try Self.snapshot("older")
        let newer = try Self.snapshot("newer")
        // The first load reads the store, then stalls until told to finish.
        let slow = Task {
            try await keyring.reload {
                startedContinuation.yield()
                var iterator = release.makeAsyncIterator()
                _ = await iterator.next()
                return older
            }
        }
        var startedIterator = started.makeAsyncIterator()
        _ = await startedIterator.next()
        // A second load starts later and finishes first.
        #expect(try await keyring.reload { newer })
        #expect(keyring.snapshot.accessSigner.kid == "newer-access")
        releaseContinuation.yield()
        #expect(try await slow.value == false, "the earlier load's keys are dropped")
        #expect(keyring.snapshot.accessSigner.kid == "newer-access")
        // A load that starts after both is swapped in as usual.
        #expect(try await keyring.reload { try Self.snapshot("latest") })
        #expect(keyring.snapshot.accessSigner.kid == "latest-access")
    }

    @Test func aFailedLoadLeavesTheKeysInUse() async throws {
        struct Unreachable: Error {}
        let keyring = Keyring(try Self.snapshot("start"))
        await #expect(throws: Unreachable.self) { try await keyring.reload { throw Unreachable() } }
        #expect(keyring.snapshot.accessSigner.kid == "start-access")
        #expect(try await keyring.reload { try Self.snapshot("next") })
        #expect(keyring.snapshot.accessSigner.kid == "next-access")
    }
}

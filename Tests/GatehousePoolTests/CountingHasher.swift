import Foundation
import GatehouseCore
import GatehouseInfrastructure

/// Counts the password verifications (real and dummy) a pool asks for: each one is a guess evaluated.
final class CountingHasher: PasswordHasher {
    let base: any PasswordHasher
    private let verifications = LockedBox(0)

    init(_ base: any PasswordHasher) { self.base = base }

    var evaluated: Int { verifications.withLock { $0 } }

    func hash(_ password: String, lane: String?) async throws -> String { try await base.hash(password, lane: lane) }

    func verify(_ password: String, against hash: String, lane: String?) async throws -> Bool {
        verifications.withLock { $0 += 1 }
        return try await base.verify(password, against: hash, lane: lane)
    }

    func verifyDummy(_ password: String, lane: String?) async throws {
        verifications.withLock { $0 += 1 }
        try await base.verifyDummy(password, lane: lane)
    }

    func needsRehash(_ hash: String) -> Bool { base.needsRehash(hash) }

    func checkAdmission(lane: String?) throws { try base.checkAdmission(lane: lane) }
}

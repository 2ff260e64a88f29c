import Foundation
import GatehouseCore
import SQLKit

extension SQLTransaction {
    func claimSRPChallenge(id: String, expiresAt: Date) async throws -> Bool {
        // ON CONFLICT keeps a PostgreSQL transaction usable where a unique violation would abort it.
        try await first(
            """
            INSERT INTO gh_srp_challenges (id, expires_at) VALUES (\(bind: id), \(bind: expiresAt.epochSeconds))
            ON CONFLICT (id) DO NOTHING RETURNING id
            """
        ) != nil
    }
}

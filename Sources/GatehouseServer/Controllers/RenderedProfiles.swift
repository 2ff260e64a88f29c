import GatehouseAPI
import GatehouseCore
import GatehouseInfrastructure

/// The last rendered body of each profile, reused while the profile is unchanged (GET /me is the hot path).
final class RenderedProfiles: Sendable {
    private let bodies = LockedBox<[String: (view: ProfileView, body: [UInt8])]>([:])

    /// The JSON body of a profile view, rendered at most once per change.
    /// - Parameter view: The profile view.
    /// - Returns: Its JSON (`Components.Schemas.Profile`, written by ``ContractEncoder``).
    /// - Throws: `EncodingError` (not for a profile).
    func body(for view: ProfileView) throws -> [UInt8] {
        if let cached = bodies.withLock({ $0[view.profile.sub] }), cached.view == view { return cached.body }
        let body = try Components.Schemas.Profile(view).jsonBytes()
        bodies.withLock { bodies in
            if bodies.count >= 50_000 { bodies.removeAll(keepingCapacity: true) }
            bodies[view.profile.sub] = (view, body)
        }
        return body
    }
}

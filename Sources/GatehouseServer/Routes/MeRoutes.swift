import GatehouseCore
import GatehouseInfrastructure
import Hummingbird

/// The protected API: the caller's just-in-time profile.
enum MeRoutes {
    static func register(on routes: RouteRegistry, _ d: RouteDependencies) {
        let rendered = RenderedProfiles()
        routes.on(.get, "/me") { request, context in
            let principal = try await d.principal(request, context)
            let view = try await d.profiles.view(for: principal, logger: context.logger)
            return JSONResponse.make(.ok, body: rendered.body(for: view))
        }
        routes.on(.patch, "/me") { request, context in
            let principal = try await d.principal(request, context)
            let body = try await d.json(request, context)
            let fullName: String??
            switch body.members["full_name"] {
            case nil: fullName = .none
            case .null?: fullName = .some(nil)
            case .string(let value)?: fullName = .some(try EmbeddedUserPool.displayName(value))
            case let other?: throw GatehouseError.invalidRequest("'full_name' must be a string or null, not \(other.typeName).")
            }
            return JSONResponse.make(.ok, WireFormat.profile(try await d.profiles.update(for: principal, fullName: fullName, logger: context.logger)))
        }
        routes.on(.delete, "/me") { request, context in
            let principal = try await d.principal(request, context)
            try await d.profiles.delete(for: principal, logger: context.logger)
            return JSONResponse.noContent()
        }
    }
}

/// The last rendered body of each profile, reused while the profile is unchanged (GET /me is the hot path).
final class RenderedProfiles: Sendable {
    private let bodies = Mutex<[String: (view: ProfileView, body: [UInt8])]>([:])

    func body(for view: ProfileView) -> [UInt8] {
        if let cached = bodies.withLock({ $0[view.profile.sub] }), cached.view == view { return cached.body }
        let body = WireFormat.profile(view).serialized()
        bodies.withLock { bodies in
            if bodies.count >= 50_000 { bodies.removeAll(keepingCapacity: true) }
            bodies[view.profile.sub] = (view, body)
        }
        return body
    }
}

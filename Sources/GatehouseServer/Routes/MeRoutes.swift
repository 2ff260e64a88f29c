import GatehouseCore
import Hummingbird

/// The protected API: the caller's just-in-time profile.
enum MeRoutes {
    static func register(on routes: RouteRegistry, _ d: RouteDependencies) {
        routes.on(.get, "/me") { request, context in
            let principal = try await d.principal(request, context)
            return JSONResponse.make(.ok, WireFormat.profile(try await d.profiles.view(for: principal, logger: context.logger)))
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

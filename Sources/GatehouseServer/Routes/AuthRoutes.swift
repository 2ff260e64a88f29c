import GatehouseCore
import Hummingbird

/// The email and password endpoints of CONTRACT.md.
enum AuthRoutes {
    static let passwordLimit = 1024

    static func register(on routes: RouteRegistry, _ d: RouteDependencies) {
        routes.on(.post, "/auth/signup") { request, context in
            let body = try await d.json(request, context)
            let result = try await d.passwords.signUp(
                email: try body.string("email", maxLength: EmailAddress.maxLength), password: try body.string("password", maxLength: passwordLimit),
                fullName: try body.optionalString("full_name", maxLength: 1024), client: context.client, logger: context.logger)
            return JSONResponse.make(.created, WireFormat.signUp(result))
        }
        routes.on(.post, "/auth/confirm") { request, context in
            let body = try await d.json(request, context)
            try await d.passwords.confirmSignUp(
                email: try body.string("email", maxLength: EmailAddress.maxLength), code: try body.string("code", maxLength: 32),
                client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, ["confirmed": true])
        }
        routes.on(.post, "/auth/resend-code") { request, context in
            let body = try await d.json(request, context)
            let delivery = try await d.passwords.resendConfirmationCode(
                email: try body.string("email", maxLength: EmailAddress.maxLength), client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, ["code_delivery": WireFormat.codeDelivery(delivery)])
        }
        routes.on(.post, "/auth/signin") { request, context in
            let body = try await d.json(request, context)
            let tokens = try await d.passwords.signIn(
                email: try body.string("email", maxLength: EmailAddress.maxLength), password: try body.string("password", maxLength: passwordLimit),
                client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, body: WireFormat.tokens(tokens))
        }
        routes.on(.post, "/auth/refresh") { request, context in
            let body = try await d.json(request, context)
            let tokens = try await d.sessions.refresh(
                refreshToken: try body.string("refresh_token", maxLength: 8192), client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, body: WireFormat.tokens(tokens))
        }
        routes.on(.post, "/auth/signout") { request, context in
            let body = try await d.json(request, context)
            try await d.sessions.signOut(refreshToken: try body.string("refresh_token", maxLength: 8192), logger: context.logger)
            return JSONResponse.noContent()
        }
        routes.on(.post, "/auth/signout/all") { request, context in
            let principal = try await d.principal(request, context)
            try await d.sessions.signOutEverywhere(principal: principal, logger: context.logger)
            return JSONResponse.noContent()
        }
        routes.on(.post, "/auth/password/forgot") { request, context in
            let body = try await d.json(request, context)
            let delivery = try await d.passwords.forgotPassword(
                email: try body.string("email", maxLength: EmailAddress.maxLength), client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, ["code_delivery": WireFormat.codeDelivery(delivery)])
        }
        routes.on(.post, "/auth/password/reset") { request, context in
            let body = try await d.json(request, context)
            try await d.passwords.resetPassword(
                email: try body.string("email", maxLength: EmailAddress.maxLength), code: try body.string("code", maxLength: 32),
                newPassword: try body.string("new_password", maxLength: passwordLimit), client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, ["reset": true])
        }
        routes.on(.post, "/auth/password/change") { request, context in
            let principal = try await d.principal(request, context)
            let body = try await d.json(request, context)
            try await d.passwords.changePassword(
                principal: principal, currentPassword: try body.string("current_password", maxLength: passwordLimit),
                newPassword: try body.string("new_password", maxLength: passwordLimit), client: context.client, logger: context.logger)
            return JSONResponse.make(.ok, ["changed": true])
        }
    }
}

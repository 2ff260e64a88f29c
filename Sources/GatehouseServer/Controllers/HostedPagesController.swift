import GatehouseCore
import GatehouseInfrastructure
import HTTPTypes
import Hummingbird

/// The hosted UI's pages (`GATEHOUSE_HOSTED_UI`): sign in, sign up with the mailed code, forgot and
/// reset password. Plain HTML forms that work without JavaScript, as Cognito's managed login does.
/// Each form carries the app's authorization request (checked again on every post) and a CSRF token
/// bound to the browser's form cookie; each action is the API's use case, so the throttles,
/// enumeration rules and wording are the API's. Where passkeys are offered, the sign-in page's script
/// posts a passkey's assertion in a form of the same kind (`/login/passkey`).
struct HostedPagesController {
    let responder: HostedUIResponder
    let passwords: PasswordAuthentication
    let secondFactor: SecondFactor
    /// Passkeys, where the sign-in page offers them; `nil`: `/login/passkey` is not served.
    let passkeys: Passkeys?
    let body: RequestBodyReader

    /// Adds the routes.
    /// - Parameter group: Where the routes go.
    func addRoutes(to group: RouterGroup<GatehouseRequestContext>) {
        group.get("/login", use: { request, _ in try show(.login, request) })
        group.get("/signup", use: { request, _ in try show(.signup, request) })
        group.get("/forgotPassword", use: { request, _ in try show(.forgot, request) })
        group.post("/login", use: signIn)
        group.post("/signup", use: signUp)
        group.post("/confirmUser", use: confirm)
        group.post("/resendCode", use: resend)
        group.post("/forgotPassword", use: forgot)
        group.post("/confirmForgotPassword", use: reset)
        group.post("/mfa", use: mfa)
        if passkeys != nil { group.post("/login/passkey", use: passkeySignIn) }
    }

    static func title(_ screen: HostedPage.Screen) -> String {
        switch screen {
        case .login: "Sign in"
        case .signup: "Create an account"
        case .confirm: "Confirm your email"
        case .forgot: "Reset your password"
        case .reset: "Choose a new password"
        case .mfa: "Enter your code"
        case .message: "Sign-in"
        }
    }

    func show(_ screen: HostedPage.Screen, _ request: Request) throws -> Response {
        do {
            let authorization = try responder.authorization(query: request.uri.query)
            return responder.page(HostedPage(screen, title: Self.title(screen)), for: authorization, request: request)
        } catch {
            return responder.refusal(error)
        }
    }

    /// A posted form: read, its CSRF token checked against the browser's cookie, its authorization
    /// request checked again. Anything else is a page saying so, and nothing is done.
    struct Posted {
        let fields: [String: String]
        let authorization: AuthorizationRequest
        var email: String { fields["email"] ?? "" }
    }

    func read(_ request: Request, _ respond: (Posted) async throws -> Response) async throws -> Response {
        let fields: [String: String]
        do {
            fields = try await FormBody.read(request, reader: body)
        } catch let failure as any ContractFailure {
            return responder.pages.response(.message("The form could not be read", failure.message), status: failure.status)
        }
        guard responder.hosted.checkFormToken(fields["csrf"], binding: responder.cookies.value(.form, in: request)) else {
            return responder.pages.response(
                .message(
                    "This form has expired",
                    "The form was not sent from this browser's sign-in page, or it is too old. Go back to the app and start again."
                ),
                status: .forbidden
            )
        }
        let authorization: AuthorizationRequest
        do {
            authorization = try responder.authorization(form: fields)
        } catch {
            return responder.refusal(error)
        }
        return try await respond(Posted(fields: fields, authorization: authorization))
    }

    /// The same form again, with the use case's refusal announced.
    func refused(
        _ error: GatehouseError,
        _ screen: HostedPage.Screen,
        _ posted: Posted,
        _ request: Request,
        name: String? = nil
    ) -> Response {
        var page = HostedPage(screen, title: Self.title(screen))
        page.error = error.message
        page.email = posted.email
        page.name = name
        return responder.page(page, for: posted.authorization, request: request, status: error.status)
    }

    func page(_ screen: HostedPage.Screen, _ posted: Posted, _ request: Request, notice: String) -> Response {
        var page = HostedPage(screen, title: Self.title(screen))
        page.notice = notice
        page.email = posted.email
        return responder.page(page, for: posted.authorization, request: request)
    }

    @Sendable func signIn(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await read(request) { posted in
            do {
                let tokens = try await passwords.signIn(
                    email: posted.email,
                    password: posted.fields["password"] ?? "",
                    client: context.client,
                    logger: context.logger
                )
                return try responder.signedIn(posted.authorization, tokens: tokens)
            } catch let error as GatehouseError where error.code == .userNotConfirmed {
                return refused(error, .confirm, posted, request)
            } catch let error as GatehouseError where error.code == .mfaRequired {
                var page = HostedPage(.mfa, title: Self.title(.mfa))
                page.notice = error.message
                page.mfaToken = error.mfaToken
                return responder.page(page, for: posted.authorization, request: request)
            } catch let error as GatehouseError {
                return refused(error, .login, posted, request)
            }
        }
    }

    /// A passkey's assertion (`credential`: the AuthenticationResponseJSON), checked by ``Passkeys`` as
    /// `POST /auth/passkey/signin` checks it; a passkey is both factors, so the browser goes back to the
    /// app with a code, as after the password form. A refusal is the sign-in page again, without autofill.
    @Sendable func passkeySignIn(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await read(request) { posted in
            do {
                guard let passkeys else { throw GatehouseError(.providerDisabled, "Passkeys are not offered here.") }
                let text = posted.fields["credential"] ?? ""
                guard !text.isEmpty, text.utf8.count <= 16_384, let credential = try? StrictJSONParser(maxDepth: 8).parse(Array(text.utf8)) else {
                    throw GatehouseError.invalidRequest("The passkey's answer could not be read. Try again.")
                }
                let tokens = try await passkeys.signIn(response: credential, client: context.client, logger: context.logger)
                return try responder.signedIn(posted.authorization, tokens: tokens)
            } catch let error as GatehouseError {
                var page = HostedPage(.login, title: Self.title(.login))
                page.error = error.message
                page.passkeyRefused = true
                return responder.page(page, for: posted.authorization, request: request, status: error.status)
            }
        }
    }

    @Sendable func mfa(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await read(request) { posted in
            let token = posted.fields["mfa_token"] ?? ""
            do {
                let tokens = try await secondFactor.verify(
                    token: token,
                    code: posted.fields["code"] ?? "",
                    client: context.client,
                    logger: context.logger
                )
                return try responder.signedIn(posted.authorization, tokens: tokens)
            } catch let error as GatehouseError where error.code == .invalidGrant {
                return refused(error, .login, posted, request)
            } catch let error as GatehouseError {
                var page = HostedPage(.mfa, title: Self.title(.mfa))
                page.error = error.message
                page.mfaToken = token
                return responder.page(page, for: posted.authorization, request: request, status: error.status)
            }
        }
    }

    @Sendable func signUp(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await read(request) { posted in
            let name = posted.fields["name"].flatMap { $0.isEmpty ? nil : $0 }
            do {
                let result = try await passwords.signUp(
                    email: posted.email,
                    password: posted.fields["password"] ?? "",
                    fullName: name,
                    client: context.client,
                    logger: context.logger
                )
                return page(.confirm, posted, request, notice: "We sent a code to \(result.codeDelivery.destination).")
            } catch let error as GatehouseError {
                return refused(error, .signup, posted, request, name: name)
            }
        }
    }

    @Sendable func confirm(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await read(request) { posted in
            do {
                try await passwords.confirmSignUp(
                    email: posted.email,
                    code: posted.fields["code"] ?? "",
                    client: context.client,
                    logger: context.logger
                )
                return page(.login, posted, request, notice: "Your email is confirmed. Sign in to continue.")
            } catch let error as GatehouseError {
                return refused(error, .confirm, posted, request)
            }
        }
    }

    @Sendable func resend(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await read(request) { posted in
            do {
                let delivery = try await passwords.resendConfirmationCode(email: posted.email, client: context.client, logger: context.logger)
                return page(.confirm, posted, request, notice: "We sent a new code to \(delivery.destination).")
            } catch let error as GatehouseError {
                return refused(error, .confirm, posted, request)
            }
        }
    }

    @Sendable func forgot(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await read(request) { posted in
            do {
                let delivery = try await passwords.forgotPassword(email: posted.email, client: context.client, logger: context.logger)
                return page(.reset, posted, request, notice: "If an account uses this address, we sent a code to \(delivery.destination).")
            } catch let error as GatehouseError {
                return refused(error, .forgot, posted, request)
            }
        }
    }

    @Sendable func reset(_ request: Request, context: GatehouseRequestContext) async throws -> Response {
        try await read(request) { posted in
            do {
                try await passwords.resetPassword(
                    email: posted.email,
                    code: posted.fields["code"] ?? "",
                    newPassword: posted.fields["password"] ?? "",
                    client: context.client,
                    logger: context.logger
                )
                return page(.login, posted, request, notice: "Your password is changed. Sign in with the new one.")
            } catch let error as GatehouseError {
                return refused(error, .reset, posted, request)
            }
        }
    }
}

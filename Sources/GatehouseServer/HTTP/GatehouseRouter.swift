import GatehouseCore
import Hummingbird

/// Puts every controller on the router behind the middleware chain (outermost first: request id
/// and logging, metrics, errors), then a 405 responder on each served path for the methods it
/// does not serve.
struct GatehouseRouter {
    let passwords: PasswordAuthentication
    let sessions: Sessions
    let social: SocialSignIn
    let phone: PhoneSignIn
    let accounts: Accounts
    let profiles: Profiles
    let passkeys: Passkeys
    let secondFactor: SecondFactor
    let administration: Administration
    let signInChoices: SignInChoices
    let accountSessions: AccountSessions
    let emailChange: EmailChange
    let metrics: GatehouseMetrics
    let discovery: DiscoveryDocuments
    let web: WebPage
    let body: RequestBodyReader
    let trustedProxies: Set<String>
    /// The browser origins allowed to call the JSON API (`GATEHOUSE_CORS_ORIGINS`); empty: none.
    var corsOrigins: Set<String> = []
    /// The app association files' contents (`GATEHOUSE_PASSKEY_APPLE_APP_IDS`, `GATEHOUSE_PASSKEY_ANDROID_APPS`).
    var appAssociation = PasskeyConfiguration()
    /// Serve the seed 003 (Hero365) API under `/api/v1` (`GATEHOUSE_COMPAT_API_V1`).
    var compatAPIV1 = false
    /// Serve Cognito's user-pool API at `POST /` for this app client (`GATEHOUSE_COGNITO_API`); nil: off.
    var cognitoAPIClient: AppClient?
    /// Serve the hosted UI (`GATEHOUSE_HOSTED_UI`): the authorization server and its pages; nil: off.
    var hostedUI: HostedUIResponder?
    /// Apple's server-to-server notifications (`POST /auth/apple/notifications`; without Apple configured
    /// every notification is refused, answered alike).
    var appleNotifications: AppleNotifications?

    /// Adds the middleware and every controller's routes.
    /// - Parameter router: The application's router.
    /// - Returns: The routes served.
    func install(on router: Router<GatehouseRequestContext>) -> ServedRoutes {
        router.add(middleware: RequestContextMiddleware(trustedProxies: trustedProxies))
        router.add(middleware: MetricsMiddleware(metrics: metrics))
        let servedRoutes = ExtensionMethodMiddleware.LockedRoutes()
        // Outside the error middleware, so error answers carry the CORS headers a page needs to read them.
        if !corsOrigins.isEmpty { router.add(middleware: CORSMiddleware(origins: corsOrigins, routes: servedRoutes)) }
        router.add(middleware: ErrorMiddleware())
        router.add(middleware: ExtensionMethodMiddleware(routes: servedRoutes))
        let recorder = RouteRecorder(router: router)
        let routes = recorder.group()
        let authenticator = BearerAuthenticator(sessions: sessions)
        WebPageController(page: web).addRoutes(to: routes)
        let passwordRoutes = PasswordController(passwords: passwords, body: body, authenticator: authenticator)
        passwordRoutes.addRoutes(to: routes)
        TokenController(sessions: sessions, body: body, authenticator: authenticator).addRoutes(to: routes)
        AccountController(profiles: profiles, accounts: accounts, body: body, authenticator: authenticator).addRoutes(to: routes)
        AccountSessionsController(sessions: accountSessions, emailChange: emailChange, profiles: profiles, body: body, authenticator: authenticator)
            .addRoutes(to: routes)
        SocialController(social: social, body: body).addRoutes(to: routes)
        PhoneController(phone: phone, profiles: profiles, body: body, authenticator: authenticator).addRoutes(to: routes)
        if compatAPIV1 {
            CompatAPIController(
                passwords: passwords,
                passwordRoutes: passwordRoutes,
                sessions: sessions,
                social: social,
                phone: phone,
                profiles: profiles,
                body: body,
                authenticator: authenticator
            )
            .addRoutes(to: routes)
        }
        if let cognitoAPIClient {
            CognitoAPIController(
                passwords: passwords,
                sessions: sessions,
                accounts: accounts,
                profiles: profiles,
                secondFactor: secondFactor,
                passkeys: passkeys,
                signInChoices: signInChoices,
                client: cognitoAPIClient,
                body: body
            )
            .addRoutes(to: routes)
        }
        if let hostedUI {
            OAuthController(responder: hostedUI, sessions: sessions, profiles: profiles, body: body, authenticator: authenticator)
                .addRoutes(to: routes)
            HostedPagesController(
                responder: hostedUI,
                passwords: passwords,
                secondFactor: secondFactor,
                passkeys: hostedUI.pages.offersPasskeys ? passkeys : nil,
                body: body
            )
            .addRoutes(to: routes)
        }
        if secondFactor.isAvailable {
            SecondFactorController(secondFactor: secondFactor, body: body, authenticator: authenticator).addRoutes(to: routes)
        }
        if passkeys.settings != nil {
            PasskeyController(passkeys: passkeys, body: body, authenticator: authenticator).addRoutes(to: routes)
        }
        if !appAssociation.appleAppIDs.isEmpty || !appAssociation.androidApps.isEmpty {
            AppAssociationController(appleAppIDs: appAssociation.appleAppIDs, androidApps: appAssociation.androidApps).addRoutes(to: routes)
        }
        AppleWebController(social: social, body: body).addRoutes(to: routes)
        if let appleNotifications { AppleNotificationController(notifications: appleNotifications, body: body).addRoutes(to: routes) }
        WellKnownController(discovery: discovery).addRoutes(to: routes)
        OperationsController(sessions: sessions, metrics: metrics).addRoutes(to: routes)
        AdminController(administration: administration, body: body).addRoutes(to: routes)
        let served = recorder.finish()
        servedRoutes.fill(served)
        return served
    }
}

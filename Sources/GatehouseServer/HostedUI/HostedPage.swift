import GatehouseCore

/// One screen of the hosted UI, as the template needs it. Every value is escaped by Mustache's
/// `{{…}}`; nothing reaches the page raw.
struct HostedPage {
    /// Which form the page shows.
    enum Screen: String {
        case login, signup, confirm, forgot, reset, mfa, message
    }

    var screen: Screen
    var title: String
    var notice: String?
    var error: String?
    var message: String?
    var email: String?
    var name: String?
    /// The authorization request the page's forms carry, if any.
    var request: AuthorizationRequest?
    /// The CSRF token for the browser's form-binding cookie.
    var csrf: String?
    /// `/oauth2/authorize` links for the provider buttons.
    var googleLink: String?
    var appleLink: String?
    /// The second-step challenge the MFA form carries.
    var mfaToken: String?
    /// The page answers a refused passkey: it offers the button, not autofill (which would offer the
    /// same passkey again at once).
    var passkeyRefused = false

    init(_ screen: Screen, title: String) {
        self.screen = screen
        self.title = title
    }

    /// An error or information page without a form.
    static func message(_ title: String, _ text: String) -> HostedPage {
        var page = HostedPage(.message, title: title)
        page.message = text
        return page
    }

    /// The template's context; `passkeys` shows the sign-in screen's passkey button, form and script.
    func context(appName: String, passwordHint: String, passkeys: Bool = false) -> [String: Any] {
        var context: [String: Any] = [screen.rawValue: true, "title": title, "appName": appName, "passwordHint": passwordHint]
        if let notice { context["notice"] = notice }
        if let error { context["error"] = error }
        if let message { context["message"] = message }
        context["email"] = email ?? request?.loginHint ?? ""
        context["name"] = name ?? ""
        if let mfaToken { context["mfaToken"] = mfaToken }
        if passkeys, screen == .login {
            context["passkeys"] = true
            if passkeyRefused { context["passkeyAutofillOff"] = true }
        }
        if let request {
            let items = request.continuingOnPage.queryItems
            var hidden: [[String: String]] = items.map { ["name": $0.name, "value": $0.value] }
            if let csrf { hidden.append(["name": "csrf", "value": csrf]) }
            context["hidden"] = hidden
            context["query"] = QueryItems.encode(items)
        }
        if googleLink != nil || appleLink != nil {
            context["providers"] = true
            if let googleLink { context["google"] = googleLink }
            if let appleLink { context["apple"] = appleLink }
        }
        return context
    }
}

import Foundation

/// The messages of the user pool, rendered from the built-in Mustache templates (``MailTemplateSet``):
/// the pool still hands finished ``MailMessage``s to its ``Mailer``. No message text lives here; once the
/// pool queues ``MailRequest``s for ``MailRenderer``, this adapter goes.
struct MailTemplates: Sendable {
    var appName: String

    init(appName: String) {
        self.appName = appName
    }

    static func lifetime(_ seconds: TimeInterval) -> String {
        MailTemplateSet.lifetime(seconds)
    }

    func confirmSignUp(to email: String, name: String?, code: String, lifetime: TimeInterval) -> MailMessage {
        message(MailRequest(kind: .confirmSignUp, to: email, name: name, code: code, lifetime: Int(lifetime)))
    }

    func resetPassword(to email: String, name: String?, code: String, lifetime: TimeInterval) -> MailMessage {
        message(MailRequest(kind: .resetPassword, to: email, name: name, code: code, lifetime: Int(lifetime)))
    }

    func alreadyRegistered(to email: String, name: String?, confirmed: Bool) -> MailMessage {
        message(MailRequest(kind: .alreadyRegistered, to: email, name: name, confirmed: confirmed))
    }

    func passwordChanged(to email: String, name: String?, reset: Bool) -> MailMessage {
        message(MailRequest(kind: .passwordChanged, to: email, name: name, reset: reset))
    }

    func message(_ request: MailRequest) -> MailMessage {
        let context = MailTemplateSet.context(for: request, appName: appName, replyTo: nil)
        let rendered = MailTemplateSet.builtIn.render(request.kind, context: context)
        return MailMessage(kind: request.kind.rawValue, to: request.to, subject: rendered.subject, body: rendered.text, html: rendered.html)
    }
}

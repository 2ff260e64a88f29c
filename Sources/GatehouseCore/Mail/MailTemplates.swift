import Foundation

/// The text of every message Gatehouse sends: a subject, a greeting, what happened, the code and how
/// long it lives, and what to do if the reader did not ask for it.
struct MailTemplates: Sendable {
    var appName: String

    init(appName: String) {
        self.appName = appName
    }

    func greeting(_ name: String?) -> String {
        if let name, !name.isEmpty { return "Hello \(name)," }
        return "Hello,"
    }

    static func lifetime(_ seconds: TimeInterval) -> String {
        let minutes = Int((seconds / 60).rounded())
        if minutes % (60 * 24) == 0 {
            let days = minutes / (60 * 24)
            return days == 1 ? "24 hours" : "\(days) days"
        }
        if minutes % 60 == 0 {
            let hours = minutes / 60
            return hours == 1 ? "1 hour" : "\(hours) hours"
        }
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }

    func confirmSignUp(to email: String, name: String?, code: String, lifetime: TimeInterval) -> MailMessage {
        MailMessage(
            kind: "confirm_signup",
            to: email,
            subject: "Your \(appName) verification code: \(code)",
            body: """
                \(greeting(name))

                Thanks for signing up for \(appName). To confirm your email address, enter this code in the app:

                    \(code)

                The code works once and expires in \(Self.lifetime(lifetime)).

                If you did not create an account, you can ignore this message; without the code nobody can finish the sign-up.

                — The \(appName) team
                """
        )
    }

    func resetPassword(to email: String, name: String?, code: String, lifetime: TimeInterval) -> MailMessage {
        MailMessage(
            kind: "reset_password",
            to: email,
            subject: "Reset your \(appName) password",
            body: """
                \(greeting(name))

                Someone asked to reset the password of your \(appName) account. If it was you, enter this code in the app and choose a new password:

                    \(code)

                The code works once and expires in \(Self.lifetime(lifetime)). Resetting your password signs you out on every device.

                If you did not ask for this, ignore this message: your password stays as it is.

                — The \(appName) team
                """
        )
    }

    func alreadyRegistered(to email: String, name: String?, confirmed: Bool) -> MailMessage {
        let next =
            confirmed
            ? "If it was you, just sign in. If you forgot your password, use \"Forgot password\" to choose a new one."
            : "An earlier sign-up with this address is still waiting for its confirmation code. If you did not start it, use \"Forgot password\": resetting the password proves the address is yours and replaces whatever password was chosen."
        return MailMessage(
            kind: "already_registered",
            to: email,
            subject: "Someone tried to sign up for \(appName) with your email",
            body: """
                \(greeting(name))

                Someone just tried to create a \(appName) account with this email address, but it already belongs to an account.

                \(next)

                If this was not you, you do not need to do anything.

                — The \(appName) team
                """
        )
    }

    func passwordChanged(to email: String, name: String?, reset: Bool) -> MailMessage {
        MailMessage(
            kind: "password_changed",
            to: email,
            subject: "Your \(appName) password was changed",
            body: """
                \(greeting(name))

                The password of your \(appName) account was just \(reset ? "reset with a code sent to this address" : "changed"). \(reset ? "You were signed out on every device." : "Your other devices were signed out.")

                If this was you, there is nothing more to do. If it was not, reset your password now with "Forgot password" and check the devices signed in to your account.

                — The \(appName) team
                """
        )
    }
}

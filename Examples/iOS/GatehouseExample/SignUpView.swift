import Gatehouse
import SwiftUI

/// Sign-up; on success RootView switches to the confirmation screen (auth.needsConfirmation).
struct SignUpView: View {
    @Environment(AuthModel.self) private var auth
    @Environment(\.dismiss) private var dismiss
    @State private var name = ""
    @State private var email = ""
    @State private var password = ""

    var body: some View {
        NavigationStack {
            Form {
                TextField("Name (optional)", text: $name).textContentType(.name)
                TextField("Email", text: $email)
                    .textContentType(.emailAddress)
                    .keyboardType(.emailAddress)
                    .textInputAutocapitalization(.never)
                SecureField("Password (8+ characters, a digit)", text: $password).textContentType(.newPassword)
                if let message = auth.errorMessage { Text(message).foregroundStyle(.red) }
                Button("Create account") {
                    Task {
                        await auth.signUp(email: email, password: password, fullName: name.isEmpty ? nil : name)
                        if auth.needsConfirmation { dismiss() }
                    }
                }
                .disabled(email.isEmpty || password.isEmpty || auth.isLoading)
            }
            .navigationTitle("Create account")
            .toolbar { ToolbarItem(placement: .cancellationAction) { Button("Cancel") { dismiss() } } }
        }
    }
}

/// The emailed code, with resend.
struct ConfirmView: View {
    @Environment(AuthModel.self) private var auth
    @State private var code = ""
    @State private var password = ""

    var body: some View {
        Form {
            Section("We emailed a code to \(auth.pendingEmail ?? "you")") {
                TextField("6-digit code", text: $code)
                    .textContentType(.oneTimeCode)
                    .keyboardType(.numberPad)
                SecureField("Password (to sign in right after)", text: $password)
                Button("Confirm") { Task { await auth.confirm(code: code, password: password.isEmpty ? nil : password) } }
                    .disabled(code.count < 6 || auth.isLoading)
                Button("Send a new code") { Task { await auth.resendCode() } }
            }
            if let message = auth.errorMessage { Text(message).foregroundStyle(.red) }
        }
        .navigationTitle("Confirm your email")
        .navigationBarBackButtonHidden()
        .toolbar {
            ToolbarItem(placement: .navigationBarLeading) {
                Button("Back", systemImage: "chevron.backward") { auth.cancelConfirmation() }
            }
        }
    }
}

/// Forgot password, then the code and the new password.
struct ResetPasswordView: View {
    @Environment(AuthModel.self) private var auth
    @Environment(\.dismiss) private var dismiss
    @State private var email = ""
    @State private var code = ""
    @State private var newPassword = ""

    var body: some View {
        NavigationStack {
            Form {
                if !auth.awaitingResetCode {
                    TextField("Email", text: $email)
                        .keyboardType(.emailAddress)
                        .textInputAutocapitalization(.never)
                    Button("Send code") { Task { await auth.forgotPassword(email: email) } }.disabled(email.isEmpty)
                } else {
                    TextField("Code", text: $code).textContentType(.oneTimeCode).keyboardType(.numberPad)
                    SecureField("New password", text: $newPassword).textContentType(.newPassword)
                    Button("Set password") {
                        Task {
                            await auth.resetPassword(code: code, newPassword: newPassword)
                            if auth.errorMessage == nil { dismiss() }
                        }
                    }
                }
                if let message = auth.errorMessage { Text(message).foregroundStyle(.red) }
            }
            .navigationTitle("Reset password")
            .toolbar { ToolbarItem(placement: .cancellationAction) { Button("Cancel") { dismiss() } } }
        }
    }
}
